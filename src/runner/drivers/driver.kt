// sudoku-judge's LeetCode driver for Kotlin. The submission's class
// Solution is compiled beside it. Says "ready" on the answer channel (the
// path in SUDOKU_JUDGE_ANSWERS), then reads one 81-character puzzle a line
// until `end`, calls a fresh Solution's solveSudoku on each board (an
// Array<CharArray>) and writes "<row>/<row>/.../<row>" on the channel,
// apart from the submission's own stdout.
// The judge sends the next board only after this answer, and times each
// board from outside.
import java.io.FileOutputStream

fun main() {
    val answers = FileOutputStream(System.getenv("SUDOKU_JUDGE_ANSWERS")).bufferedWriter(Charsets.UTF_8)
    answers.write("ready\n")
    answers.flush()
    while (true) {
        val line = readLine()?.trimEnd() ?: break
        if (line == "end") break
        if (line.length != 81) continue
        val board = Array(9) { r -> CharArray(9) { c -> line[r * 9 + c] } }
        Solution().solveSudoku(board)
        // What it printed goes out with the board it printed it for.
        System.out.flush()
        answers.write(board.joinToString("/") { String(it) } + "\n")
        answers.flush()
    }
    answers.close()
}
