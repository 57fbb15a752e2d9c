# sudoku-judge's LeetCode driver for Ruby. Loads the submission with `set`
# required, says "ready" on the answer channel (the path in
# SUDOKU_JUDGE_ANSWERS), then reads one 81-character puzzle a line until
# `end`, calls solve_sudoku on each board (an array of rows of one-character
# strings) and writes "<row>/<row>/.../<row>" on the channel, apart from the
# submission's own stdout. The judge sends the next board only
# after this answer, and times each board from outside.
require 'set'

load ARGV[0]

SUDOKU_JUDGE_ANSWERS = File.open(ENV.fetch('SUDOKU_JUDGE_ANSWERS'), 'w')
SUDOKU_JUDGE_ANSWERS.sync = true
SUDOKU_JUDGE_ANSWERS.write("ready\n")
$stdin.each_line do |raw|
  line = raw.rstrip
  break if line == 'end'
  next unless line.length == 81

  board = Array.new(9) { |r| line[r * 9, 9].chars }
  solve_sudoku(board)
  # What it printed goes out with the board it printed it for.
  $stdout.flush
  rows = board.map do |row|
    row.map { |c| c.is_a?(String) && c.length == 1 ? c : '?' }.join
  end
  SUDOKU_JUDGE_ANSWERS.write(rows.join('/') + "\n")
end
