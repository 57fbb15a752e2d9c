# LeetCode 37: the textbook backtracking, row by row, with a validity scan
# of the row, column and box for each digit. LeetCode accepts it.
class Solution:
    def solveSudoku(self, board: List[List[str]]) -> None:
        def valid(r, c, d):
            for i in range(9):
                if board[r][i] == d or board[i][c] == d:
                    return False
                if board[3 * (r // 3) + i // 3][3 * (c // 3) + i % 3] == d:
                    return False
            return True

        def solve():
            for r in range(9):
                for c in range(9):
                    if board[r][c] == ".":
                        for d in "123456789":
                            if valid(r, c, d):
                                board[r][c] = d
                                if solve():
                                    return True
                                board[r][c] = "."
                        return False
            return True

        solve()
