// AcWing 166 / POJ 3074: depth-first search on the empty cell with the
// fewest candidates, with row, column and box bitmasks, the approach the
// real judges accept.
#include <cstdio>
#include <cstring>

static char g[82];
static int rows[9], cols[9], boxes[9];
static int ones[1 << 9], low[1 << 9];

static inline int box_of(int r, int c) { return r / 3 * 3 + c / 3; }

static inline void flip(int r, int c, int d) {
    rows[r] ^= 1 << d;
    cols[c] ^= 1 << d;
    boxes[box_of(r, c)] ^= 1 << d;
}

static bool dfs(int left) {
    if (left == 0) return true;
    int best = -1, best_mask = 0, fewest = 10;
    for (int pos = 0; pos < 81; pos++) {
        if (g[pos] != '.') continue;
        int r = pos / 9, c = pos % 9;
        int mask = 0x1FF & ~(rows[r] | cols[c] | boxes[box_of(r, c)]);
        if (ones[mask] < fewest) {
            fewest = ones[mask];
            best = pos;
            best_mask = mask;
            if (fewest <= 1) break;
        }
    }
    if (fewest == 0) return false;
    int r = best / 9, c = best % 9;
    for (int mask = best_mask; mask; mask &= mask - 1) {
        int d = low[mask & -mask];
        flip(r, c, d);
        g[best] = '1' + d;
        if (dfs(left - 1)) return true;
        flip(r, c, d);
        g[best] = '.';
    }
    return false;
}

int main() {
    for (int m = 1; m < (1 << 9); m++) ones[m] = ones[m >> 1] + (m & 1);
    for (int d = 0; d < 9; d++) low[1 << d] = d;
    char line[256];
    while (scanf("%255s", line) == 1 && strcmp(line, "end") != 0) {
        memcpy(g, line, 81);
        g[81] = 0;
        memset(rows, 0, sizeof rows);
        memset(cols, 0, sizeof cols);
        memset(boxes, 0, sizeof boxes);
        int left = 0;
        for (int pos = 0; pos < 81; pos++) {
            if (g[pos] == '.') left++;
            else flip(pos / 9, pos % 9, g[pos] - '1');
        }
        dfs(left);
        puts(g);
    }
    return 0;
}
