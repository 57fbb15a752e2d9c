// AcWing 166 / POJ 3074: plain row-major depth-first search with a
// validity scan for each digit, the first solution most people write.
// The real judges give it Time Limit Exceeded.
#include <cstdio>
#include <cstring>

static char g[82];

static bool fits(int pos, char d) {
    int r = pos / 9, c = pos % 9;
    int br = r / 3 * 3, bc = c / 3 * 3;
    for (int i = 0; i < 9; i++) {
        if (g[r * 9 + i] == d || g[i * 9 + c] == d) return false;
        if (g[(br + i / 3) * 9 + bc + i % 3] == d) return false;
    }
    return true;
}

static bool dfs(int pos) {
    while (pos < 81 && g[pos] != '.') pos++;
    if (pos == 81) return true;
    for (char d = '1'; d <= '9'; d++) {
        if (fits(pos, d)) {
            g[pos] = d;
            if (dfs(pos + 1)) return true;
            g[pos] = '.';
        }
    }
    return false;
}

int main() {
    char line[256];
    while (scanf("%255s", line) == 1 && strcmp(line, "end") != 0) {
        memcpy(g, line, 81);
        g[81] = 0;
        dfs(0);
        puts(g);
    }
    return 0;
}
