<?php
// sudoku-judge's LeetCode driver for PHP. Loads the submission, says
// "ready" on the answer channel (the path in SUDOKU_JUDGE_ANSWERS), then
// reads one 81-character puzzle a line until `end`, calls a fresh
// Solution's solveSudoku on each board (an array of rows of one-character
// strings, passed by reference) and writes "<row>/<row>/.../<row>" on the
// channel, apart from the submission's own stdout.
// The judge sends the next board only after this answer, and times each
// board from outside.
require $argv[1];

function sudoku_judge_main()
{
    $channel = getenv('SUDOKU_JUDGE_ANSWERS');
    // PHP resolves links before it opens a path, and a pipe's /dev/fd link
    // leads to no file: such a path is opened as the descriptor it names.
    if (preg_match('#^/dev/fd/([0-9]+)$#', $channel, $fd)) {
        $channel = 'php://fd/' . $fd[1];
    }
    $answers = fopen($channel, 'w');
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
