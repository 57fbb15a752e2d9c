"""Runs the reference search's AVX-512 copy under BochsCPU, an emulator of
an x86-64 CPU with AVX-512, and holds it against the copy this CPU runs
natively, puzzle by puzzle: solutions, guesses and the first solution, at
limits 1 and 2 and with the graded branch choice.

    python3 avx512.py LIBRARY PUZZLES_FILE... [--count N]

LIBRARY is the `emulated_search` example (a cdylib). The search runs in
this process's own memory: every page it touches (the library's, the C
library's, the argument buffers, a stack) is mapped into the emulator with
guest-virtual = host-virtual addresses. The call returns to a page of
`ud2`, whose fault there ends it. Exit status 0 when every search agrees,
1 when one differs, 2 when the emulator faults anywhere else.
"""

import argparse
import ctypes
import sys

import bochscpu
import bochscpu.cpu
import bochscpu.memory

PAGE = bochscpu.memory.page_size()
PML4 = 0x1000
# The copies, as the library numbers them.
PORTABLE, AVX2, AVX512 = range(3)
NAMES = ["portable", "avx2", "avx512"]
UD = 6


class Emulator:
    """One CPU of BochsCPU in 64-bit mode, over this process's memory."""

    def __init__(self, stack_pages=256):
        self.committed = False
        self.session = bochscpu.Session()
        self.session.missing_page_handler = self._missing
        self.tables = bochscpu.memory.PageMapLevel4Table()
        self.next_physical = 0x1000_0000
        self.mapped = set()
        self.stack = ctypes.create_string_buffer((stack_pages + 1) * PAGE)
        base = (ctypes.addressof(self.stack) + PAGE - 1) & ~(PAGE - 1)
        self.stack_top = base + stack_pages * PAGE
        self.map(base, stack_pages * PAGE)
        self.sentinel = ctypes.create_string_buffer(2 * PAGE)
        self.return_to = (ctypes.addressof(self.sentinel) + PAGE - 1) & ~(PAGE - 1)
        ctypes.memmove(self.return_to, b"\x0f\x0b" * 8, 16)
        self.map(self.return_to, PAGE)

    @staticmethod
    def _missing(physical):
        raise RuntimeError(f"the emulator touched unmapped physical memory {physical:#x}")

    def map(self, address, size):
        """Maps the host pages over [address, address + size)."""
        assert not self.committed, "map everything before the first call"
        for page in range(address & ~(PAGE - 1), address + size, PAGE):
            if page in self.mapped:
                continue
            physical = self.next_physical
            self.next_physical += PAGE
            bochscpu.memory.page_insert(physical, page)
            self.tables.insert(page, physical, 1)
            self.mapped.add(page)

    def map_object(self, fragment):
        """Maps every region of /proc/self/maps whose file name holds
        `fragment`; returns how many."""
        regions = 0
        with open("/proc/self/maps") as maps:
            for line in maps:
                fields = line.split()
                if len(fields) >= 6 and fragment in fields[5]:
                    low, high = (int(x, 16) for x in fields[0].split("-"))
                    self.map(low, high - low)
                    regions += 1
        return regions

    def call(self, function, arguments):
        """Calls `function` with up to six integer arguments; returns rax."""
        if not self.committed:
            for host, physical in self.tables.commit(PML4):
                bochscpu.memory.page_insert(physical, host)
            self.committed = True
        # At entry rsp is 8 mod 16, as after a call, holding the return
        # address.
        rsp = self.stack_top - 64 - 8
        ctypes.c_uint64.from_address(rsp).value = self.return_to
        state = bochscpu.State()
        bochscpu.cpu.set_long_mode(state)
        state.cr0 |= 1 << 1  # MP
        state.cr4 |= (1 << 9) | (1 << 10) | (1 << 18)  # OSFXSR, OSXMMEXCPT, OSXSAVE
        state.xcr0 = 0xE7  # x87, SSE, AVX, opmask, ZMM_Hi256, Hi16_ZMM
        state.cr3 = PML4
        state.rsp = rsp
        state.rip = function
        for register, value in zip(["rdi", "rsi", "rdx", "rcx", "r8", "r9"], arguments):
            setattr(state, register, value)
        code = bochscpu.Segment()
        code.present, code.selector, code.base, code.limit, code.attr = True, 0x33, 0, 0xFFFF_FFFF, 0x22FB
        data = bochscpu.Segment()
        data.present, data.selector, data.base, data.limit, data.attr = True, 0x2B, 0, 0xFFFF_FFFF, 0xCF3
        state.cs = code
        state.ds = state.ss = state.es = state.fs = state.gs = data
        self.session.cpu.state = state
        faults = []

        def exception(session, cpu, vector, error):
            faults.append((vector, error, session.cpu.rip))
            session.stop()

        hook = bochscpu.Hook()
        hook.exception = exception
        self.session.run([hook])
        # Bochs may report the fault with rip past the ud2: anywhere in the
        # sixteen bytes of them is the return.
        if not (faults and faults[0][0] == UD and 0 <= faults[0][2] - self.return_to < 16):
            vector, error, rip = faults[0] if faults else (None, None, self.session.cpu.rip)
            print(f"error: the emulator stopped with exception {vector} (error {error}) at {rip:#x}")
            sys.exit(2)
        return self.session.cpu.state.rax


def puzzles(path, count):
    with open(path) as lines:
        for line in lines:
            line = line.strip()
            if len(line) >= 81 and not line.startswith("#"):
                yield bytes(int(c) if c in "123456789" else 0 for c in line[:81])
                count -= 1
                if count == 0:
                    return


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("library")
    parser.add_argument("files", nargs="+")
    parser.add_argument("--count", type=int, default=300)
    options = parser.parse_args()
    library = ctypes.CDLL(options.library)
    native = max(p for p in (PORTABLE, AVX2) if library.sudoku_judge_path_available(p))
    emulator = Emulator()
    name = options.library.rsplit("/", 1)[-1]
    if not emulator.map_object(name):
        print(f"error: {name} is not in this process's memory map")
        sys.exit(2)
    emulator.map_object("libc.so")
    cells = (ctypes.c_uint8 * 81)()
    out = (ctypes.c_uint64 * 2)()
    first = (ctypes.c_uint8 * 81)()
    for buffer in (cells, out, first):
        emulator.map(ctypes.addressof(buffer), ctypes.sizeof(buffer))
    search = ctypes.cast(library.sudoku_judge_search, ctypes.c_void_p).value
    library.sudoku_judge_search.argtypes = [
        ctypes.c_uint32, ctypes.c_void_p, ctypes.c_size_t, ctypes.c_uint32,
        ctypes.c_void_p, ctypes.c_void_p,
    ]

    def outcome(path, limit, graded, emulated):
        out[0] = out[1] = 0
        ctypes.memset(first, 0, 81)
        arguments = [path, ctypes.addressof(cells), limit, graded, ctypes.addressof(out), ctypes.addressof(first)]
        status = emulator.call(search, arguments) if emulated else library.sudoku_judge_search(*arguments)
        assert status & 0xFFFFFFFF == 0, f"the search refused path {path}"
        return out[0], out[1], bytes(first)

    differ = searches = 0
    guesses = 0
    for path in options.files:
        for i, puzzle in enumerate(puzzles(path, options.count)):
            ctypes.memmove(cells, puzzle, 81)
            for limit, graded in [(1, 0), (2, 0), (2, 1)]:
                expected = outcome(native, limit, graded, False)
                got = outcome(AVX512, limit, graded, True)
                searches += 1
                guesses += got[1]
                if got != expected:
                    differ += 1
                    print(f"{path} puzzle {i + 1}, limit {limit}, graded {graded}: "
                          f"avx512 {got[:2]} against {NAMES[native]} {expected[:2]}")
    print(f"avx512 under emulation against {NAMES[native]}: {searches} searches, "
          f"{guesses} guesses, {differ} differ")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
