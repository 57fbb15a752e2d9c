// sudoku-judge's LeetCode driver for JavaScript (and TypeScript, once
// compiled). Loads the submission as a CommonJS module with lodash as `_`,
// as LeetCode preloads it, says "ready" on the answer channel (the path in
// SUDOKU_JUDGE_ANSWERS), then reads one 81-character puzzle a line until
// `end`, calls solveSudoku on each board (an array of rows of one-character
// strings) and writes "<row>/<row>/.../<row>" on the channel, apart from
// the submission's own stdout.
// The judge sends the next board only after this answer, and times each
// board from outside.
'use strict';
const fs = require('fs');
const path = require('path');
const Module = require('module');
const readline = require('readline');

function lodash() {
  for (const name of ['lodash', '/usr/share/nodejs/lodash', '/usr/lib/node_modules/lodash']) {
    try {
      return require(name);
    } catch (_) {
      // Not installed there.
    }
  }
  return undefined;
}

function load(file) {
  const source = fs.readFileSync(file, 'utf8');
  const submission = new Module(file, module);
  submission.filename = file;
  submission.paths = Module._nodeModulePaths(path.dirname(file));
  // The function is found whether it was declared with function, var, let
  // or const, or exported.
  submission._compile(
    source +
      '\n;module.exports.sudokuJudgeSolve = typeof solveSudoku === "function" ? solveSudoku : ' +
      'module.exports.solveSudoku || exports.solveSudoku;\n',
    file,
  );
  return submission.exports.sudokuJudgeSolve;
}

function cell(value) {
  return typeof value === 'string' && value.length === 1 ? value : '?';
}

async function main() {
  const [file, name] = process.argv.slice(2);
  const found = lodash();
  if (found !== undefined && global._ === undefined) global._ = found;
  const solveSudoku = load(file);
  if (typeof solveSudoku !== 'function') {
    process.stderr.write(`${name}: no function solveSudoku\n`);
    process.exit(2);
  }
  // Windows: a named pipe, which takes write access, not append access
  // (libuv opens 'a' with append access only).
  const mode = process.platform === 'win32' ? fs.constants.O_WRONLY : 'a';
  const answers = fs.openSync(process.env.SUDOKU_JUDGE_ANSWERS, mode);
  fs.writeSync(answers, 'ready\n');
  const input = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const raw of input) {
    const line = raw.trimEnd();
    if (line === 'end') break;
    if (line.length !== 81) continue;
    const board = [];
    for (let r = 0; r < 9; r++) board.push(line.slice(r * 9, r * 9 + 9).split(''));
    solveSudoku(board);
    const rows = board.map((row) => (Array.isArray(row) ? row.map(cell).join('') : '?'));
    fs.writeSync(answers, rows.join('/') + '\n');
  }
  input.close();
}

main();
