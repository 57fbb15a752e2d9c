// sudoku-judge's LeetCode driver for C#. The submission's class Solution is
// compiled beside it. Says "ready" on the answer channel (the path in
// SUDOKU_JUDGE_ANSWERS), then reads one 81-character puzzle a line until
// `end`, calls a fresh Solution's SolveSudoku on each board (a char[][]) and
// writes "<row>/<row>/.../<row>" on the channel, apart from the
// submission's own stdout. The judge sends the next board only after
// this answer, and times each board from outside.
using System;
using System.IO;
using System.Text;

public static class SudokuJudgeDriver
{
    public static int Main()
    {
        // A pipe: opened by its path, unbuffered, never seeked.
        var channel = Environment.GetEnvironmentVariable("SUDOKU_JUDGE_ANSWERS");
        var pipe = new FileStream(channel, FileMode.Open, FileAccess.Write, FileShare.ReadWrite, 1, false);
        using (var answers = new StreamWriter(pipe, new UTF8Encoding(false)))
        {
            answers.Write("ready\n");
            answers.Flush();
            string line;
            while ((line = Console.In.ReadLine()) != null)
            {
                line = line.TrimEnd();
                if (line == "end") break;
                if (line.Length != 81) continue;
                var board = new char[9][];
                for (int r = 0; r < 9; r++) board[r] = line.Substring(r * 9, 9).ToCharArray();
                new Solution().SolveSudoku(board);
                // What it printed goes out with the board it printed it for.
                Console.Out.Flush();
                var rows = new StringBuilder();
                for (int r = 0; r < board.Length; r++)
                {
                    if (r > 0) rows.Append('/');
                    rows.Append(board[r]);
                }
                rows.Append('\n');
                answers.Write(rows.ToString());
                answers.Flush();
            }
        }
        return 0;
    }
}
