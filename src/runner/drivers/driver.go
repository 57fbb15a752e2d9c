// sudoku-judge's LeetCode driver for Go. The submission's solveSudoku is in
// package main beside it. Says "ready" on the answer channel (the path in
// SUDOKU_JUDGE_ANSWERS), then reads one 81-character puzzle a line until
// `end`, calls solveSudoku on each board as a [][]byte and writes
// "<row>/<row>/.../<row>" on the channel, apart from the submission's own
// stdout. The judge sends the next board only after this answer, and
// times each board from outside.
package main

import (
	"bufio"
	"os"
	"strings"
)

func main() {
	channel, err := os.OpenFile(os.Getenv("SUDOKU_JUDGE_ANSWERS"), os.O_WRONLY, 0)
	if err != nil {
		os.Stderr.WriteString("sudoku-judge driver: the answer channel SUDOKU_JUDGE_ANSWERS: " + err.Error() + "\n")
		os.Exit(2)
	}
	answers := bufio.NewWriter(channel)
	answers.WriteString("ready\n")
	answers.Flush()
	input := bufio.NewScanner(os.Stdin)
	for input.Scan() {
		line := strings.TrimRight(input.Text(), " \r")
		if line == "end" {
			break
		}
		if len(line) != 81 {
			continue
		}
		board := make([][]byte, 9)
		for r := range board {
			board[r] = []byte(line[r*9 : r*9+9])
		}
		solveSudoku(board)
		// os.Stdout is unbuffered: what it printed is already out, with the
		// board it printed it for.
		for r, row := range board {
			if r > 0 {
				answers.WriteByte('/')
			}
			answers.Write(row)
		}
		answers.WriteByte('\n')
		answers.Flush()
	}
}
