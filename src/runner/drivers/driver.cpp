#line 1 "sudoku-judge-driver.cpp"
// sudoku-judge's LeetCode driver for C++. The submission's class Solution is
// above this line. Reads one 81-character puzzle a line until `end`, calls a
// fresh Solution's solveSudoku on each board, and writes
// "<ns> <row>/<row>/.../<row>" per board to the file named by argv[1], so the
// submission's own printing on stdout never mixes with its answers.
#include <chrono>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

int main(int sudoku_judge_argc, char** sudoku_judge_argv) {
    if (sudoku_judge_argc < 2) {
        std::fprintf(stderr, "usage: %s ANSWERS-FILE < puzzles\n", sudoku_judge_argv[0]);
        return 2;
    }
    std::FILE* sudoku_judge_answers = std::fopen(sudoku_judge_argv[1], "w");
    if (sudoku_judge_answers == nullptr) {
        std::perror(sudoku_judge_argv[1]);
        return 2;
    }
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
        auto started = std::chrono::steady_clock::now();
        // Value-initialised, as LeetCode does: a fresh object for every board.
        Solution* solution = new Solution();
        solution->solveSudoku(board);
        auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                      std::chrono::steady_clock::now() - started)
                      .count();
        delete solution;
        std::string rows;
        for (std::size_t r = 0; r < board.size(); ++r) {
            if (r > 0) rows += '/';
            rows.append(board[r].begin(), board[r].end());
        }
        std::fprintf(sudoku_judge_answers, "%lld %s\n", static_cast<long long>(ns), rows.c_str());
        std::fflush(sudoku_judge_answers);
    }
    std::fclose(sudoku_judge_answers);
    return 0;
}
