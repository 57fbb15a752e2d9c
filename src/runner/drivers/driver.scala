// sudoku-judge's LeetCode driver for Scala. The submission's object
// Solution is compiled beside it (one object, as on LeetCode: what it keeps
// in its fields carries over from board to board). Says "ready" on the
// answer channel (the path in SUDOKU_JUDGE_ANSWERS), then reads one
// 81-character puzzle a line until `end`, calls Solution.solveSudoku on each
// board (an Array[Array[Char]]) and writes "<row>/<row>/.../<row>" on the
// channel, apart from the submission's own stdout.
// The judge sends the next board only after this answer, and times each
// board from outside.
object SudokuJudgeDriver {
  def main(args: Array[String]): Unit = {
    val answers = new java.io.PrintStream(new java.io.FileOutputStream(System.getenv("SUDOKU_JUDGE_ANSWERS")), false, "UTF-8")
    val input = new java.io.BufferedReader(new java.io.InputStreamReader(System.in, "UTF-8"))
    answers.print("ready\n")
    answers.flush()
    var line = input.readLine()
    while (line != null && line.trim != "end") {
      val cells = line.replaceAll("\\s+$", "")
      if (cells.length == 81) {
        val board = Array.tabulate(9, 9)((r, c) => cells.charAt(r * 9 + c))
        Solution.solveSudoku(board)
        // What it printed goes out with the board it printed it for.
        System.out.flush()
        Console.out.flush()
        answers.print(board.map(row => new String(row)).mkString("/") + "\n")
        answers.flush()
      }
      line = input.readLine()
    }
    answers.close()
  }
}
