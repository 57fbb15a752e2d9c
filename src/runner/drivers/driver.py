# sudoku-judge's LeetCode driver for Python 3. Runs the submission with the
# imports LeetCode preloads, says "ready" on the answer channel (the path in
# SUDOKU_JUDGE_ANSWERS), then reads one 81-character puzzle a line until
# `end`, calls a fresh Solution().solveSudoku on each board and writes
# "<row>/<row>/.../<row>" on the channel, apart from the submission's own
# stdout. The judge sends the next
# board only after this answer, and times each board from outside.
import os
import sys

PRELUDE = """
from typing import *
from bisect import *
from collections import *
from copy import *
from functools import *
from heapq import *
from itertools import *
from math import *
from operator import *
from string import *
import array, bisect, collections, copy, functools, heapq, itertools, math
import operator, random, re, string, sys
"""


def cell(value):
    return value if isinstance(value, str) and len(value) == 1 else "?"


def main():
    source_path, display_name = sys.argv[1:3]
    answers = open(os.environ["SUDOKU_JUDGE_ANSWERS"], "w", encoding="utf-8")
    namespace = {"__name__": "solution"}
    exec(PRELUDE, namespace)
    with open(source_path, encoding="utf-8") as source:
        code = compile(source.read(), display_name, "exec")
    exec(code, namespace)
    solution_class = namespace.get("Solution")
    if solution_class is None:
        sys.exit(f"{display_name}: no class Solution")
    answers.write("ready\n")
    answers.flush()
    for line in sys.stdin:
        line = line.rstrip()
        if line == "end":
            break
        if len(line) != 81:
            continue
        board = [list(line[r * 9:(r + 1) * 9]) for r in range(9)]
        solution_class().solveSudoku(board)
        # What it printed goes out with the board it printed it for.
        sys.stdout.flush()
        rows = "/".join("".join(cell(c) for c in row) for row in board)
        answers.write(rows + "\n")
        answers.flush()


main()
