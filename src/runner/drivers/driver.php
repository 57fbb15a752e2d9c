<?php
// sudoku-judge's LeetCode driver for PHP. Loads the submission, says
// "ready" on fd 3, then reads one 81-character puzzle a line until `end`,
// calls a fresh Solution's solveSudoku on each board (an array of rows of
// one-character strings, passed by reference) and writes
// "<row>/<row>/.../<row>" to fd 3, apart from the submission's own stdout.
// The judge sends the next board only after this answer, and times each
// board from outside.
require $argv[1];

function sudoku_judge_main()
{
    $answers = fopen('php://fd/3', 'w');
    fwrite($answers, "ready\n");
    fflush($answers);
    while (($line = fgets(STDIN)) !== false) {
        $line = rtrim($line);
        if ($line === 'end') {
            break;
        }
        if (strlen($line) !== 81) {
            continue;
        }
        $board = [];
        for ($r = 0; $r < 9; $r++) {
            $board[] = str_split(substr($line, $r * 9, 9));
        }
        (new Solution())->solveSudoku($board);
        // What it printed goes out with the board it printed it for.
        flush();
        $rows = [];
        foreach ($board as $row) {
            $cells = '';
            foreach ((array) $row as $c) {
                $cells .= is_string($c) && strlen($c) === 1 ? $c : '?';
            }
            $rows[] = $cells;
        }
        fwrite($answers, implode('/', $rows) . "\n");
        fflush($answers);
    }
    fclose($answers);
}

sudoku_judge_main();
