#line 1 "sudoku-judge-driver.cpp"
// sudoku-judge's LeetCode driver for C++. The submission's class Solution is
// above this line. Says "ready" on the answer channel (the path in
// SUDOKU_JUDGE_ANSWERS), then reads one 81-character puzzle a line until
// `end`, calls a fresh Solution's solveSudoku on each board, and writes
// "<row>/<row>/.../<row>" on the channel, so the submission's own
// printing on stdout never mixes with its answers. The judge sends the next
// board only after this answer, and times each board from outside.
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

int main() {
    const char* sudoku_judge_channel = std::getenv("SUDOKU_JUDGE_ANSWERS");
    std::FILE* sudoku_judge_answers =
        sudoku_judge_channel == nullptr ? nullptr : std::fopen(sudoku_judge_channel, "w");
    if (sudoku_judge_answers == nullptr) {
        std::perror("sudoku-judge driver: the answer channel SUDOKU_JUDGE_ANSWERS");
        return 2;
    }
    std::fputs("ready\n", sudoku_judge_answers);
    std::fflush(sudoku_judge_answers);
    std::string sudoku_judge_line;
    while (std::getline(std::cin, sudoku_judge_line)) {
        while (!sudoku_judge_line.empty() &&
               (sudoku_judge_line.back() == '\r' || sudoku_judge_line.back() == ' ')) {
            sudoku_judge_line.pop_back();
        }
        if (sudoku_judge_line == "end") break;
        if (sudoku_judge_line.size() != 81) continue;
        std::vector<std::vector<char>> board(9, std::vector<char>(9));
        for (int i = 0; i < 81; ++i) board[i / 9][i % 9] = sudoku_judge_line[i];
        // Value-initialised, as LeetCode does: a fresh object for every board.
        Solution* solution = new Solution();
        solution->solveSudoku(board);
        delete solution;
        // What it printed goes out with the board it printed it for.
        std::cout.flush();
        std::fflush(stdout);
        std::string rows;
        for (std::size_t r = 0; r < board.size(); ++r) {
            if (r > 0) rows += '/';
            rows.append(board[r].begin(), board[r].end());
        }
        rows += '\n';
        std::fputs(rows.c_str(), sudoku_judge_answers);
        std::fflush(sudoku_judge_answers);
    }
    std::fclose(sudoku_judge_answers);
    return 0;
}
