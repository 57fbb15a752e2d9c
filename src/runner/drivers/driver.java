// sudoku-judge's LeetCode driver for Java. The submission's class Solution
// is compiled beside it. Says "ready" on the answer channel (the path in
// SUDOKU_JUDGE_ANSWERS), then reads one 81-character puzzle a line until
// `end`, calls a fresh Solution's solveSudoku on each board and writes
// "<row>/<row>/.../<row>" on the channel, apart from the submission's own
// stdout. The judge sends the next board only after this
// answer, and times each board from outside.
import java.io.BufferedReader;
import java.io.FileOutputStream;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;

public class SudokuJudgeDriver {
    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        try (Writer answers = new OutputStreamWriter(new FileOutputStream(System.getenv("SUDOKU_JUDGE_ANSWERS")), StandardCharsets.UTF_8)) {
            answers.write("ready\n");
            answers.flush();
            String line;
            while ((line = in.readLine()) != null) {
                line = line.stripTrailing();
                if (line.equals("end")) break;
                if (line.length() != 81) continue;
                char[][] board = new char[9][9];
                for (int i = 0; i < 81; i++) board[i / 9][i % 9] = line.charAt(i);
                new Solution().solveSudoku(board);
                // What it printed goes out with the board it printed it for.
                System.out.flush();
                StringBuilder rows = new StringBuilder();
                for (int r = 0; r < board.length; r++) {
                    if (r > 0) rows.append('/');
                    rows.append(board[r]);
                }
                rows.append('\n');
                answers.write(rows.toString());
                answers.flush();
            }
        }
    }
}
