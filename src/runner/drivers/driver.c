#line 1 "sudoku-judge-driver.c"
/* sudoku-judge's LeetCode driver for C. The submission's solveSudoku is
 * above this line. Says "ready" on the answer channel (the path in
 * SUDOKU_JUDGE_ANSWERS), then reads one 81-character puzzle a line until
 * `end`, calls solveSudoku(board, 9, colSizes) on each board, and writes
 * "<row>/<row>/.../<row>" on the channel, so the submission's own
 * printing on stdout never mixes with its answers. The judge sends the next
 * board only after this answer, and times each board from outside. */
int main(void) {
    const char* sudoku_judge_channel = getenv("SUDOKU_JUDGE_ANSWERS");
    FILE* sudoku_judge_answers =
        sudoku_judge_channel == NULL ? NULL : fopen(sudoku_judge_channel, "w");
    if (sudoku_judge_answers == NULL) {
        perror("sudoku-judge driver: the answer channel SUDOKU_JUDGE_ANSWERS");
        return 2;
    }
    fputs("ready\n", sudoku_judge_answers);
    fflush(sudoku_judge_answers);
    char sudoku_judge_line[256];
    while (fgets(sudoku_judge_line, sizeof sudoku_judge_line, stdin) != NULL) {
        size_t n = strlen(sudoku_judge_line);
        while (n > 0 && (sudoku_judge_line[n - 1] == '\n' || sudoku_judge_line[n - 1] == '\r' ||
                         sudoku_judge_line[n - 1] == ' ')) {
            sudoku_judge_line[--n] = '\0';
        }
        if (strcmp(sudoku_judge_line, "end") == 0) break;
        if (n != 81) continue;
        /* As LeetCode passes it: rows of 9 chars, each row its own block. */
        char* rows[9];
        int cols[9];
        for (int r = 0; r < 9; ++r) {
            rows[r] = malloc(10);
            memcpy(rows[r], sudoku_judge_line + r * 9, 9);
            rows[r][9] = '\0';
            cols[r] = 9;
        }
        solveSudoku(rows, 9, cols);
        /* What it printed goes out with the board it printed it for. */
        fflush(stdout);
        for (int r = 0; r < 9; ++r) {
            if (r > 0) fputc('/', sudoku_judge_answers);
            fwrite(rows[r], 1, 9, sudoku_judge_answers);
            free(rows[r]);
        }
        fputc('\n', sudoku_judge_answers);
        fflush(sudoku_judge_answers);
    }
    fclose(sudoku_judge_answers);
    return 0;
}
