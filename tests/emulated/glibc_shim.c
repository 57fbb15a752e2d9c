/* The bochscpu-python wheel is built against glibc 2.38, which renamed
 * strtoull and sscanf for C23; older glibc (Debian 12 has 2.36) lacks the
 * new names. Preloaded, these forward them to the old ones. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

unsigned long long __isoc23_strtoull(const char *s, char **end, int base) {
    return strtoull(s, end, base);
}

int __isoc23_sscanf(const char *s, const char *format, ...) {
    va_list args;
    va_start(args, format);
    int read = vsscanf(s, format, args);
    va_end(args);
    return read;
}
