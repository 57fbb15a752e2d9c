#!/usr/bin/env bash
# How many puzzles a minute `sudoku-judge gen` makes for each grade, next to
# qqwing's generator on the same machine, and how hard each one's puzzles
# are as `sudoku-judge rate` measures them (mean guesses of the reference
# search, mean nodes of the built-in mrv and backtrack solvers), with the
# hardest public set as the yardstick. It measures; it checks nothing, and
# no test or CI step runs it.
#
#   tests/benches/gen-throughput.sh [COUNT]     COUNT puzzles a grade (100)
#
# qqwing is a Debian package (`apt-get install qqwing`); without it its rows
# are skipped with a message. The public sets are read from
# $SUDOKU_JUDGE_DATASETS, by default ../shared/datasets beside the
# repository; without them that row is skipped too.
set -euo pipefail
cd "$(dirname "$0")/../.."

count=${1:-100}
bin=target/release/sudoku-judge
datasets=${SUDOKU_JUDGE_DATASETS:-../shared/datasets}
cargo build --release --locked --quiet
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

now() { date +%s.%N; }
per_minute() { awk -v n="$1" -v a="$2" -v b="$3" 'BEGIN { printf "%.0f", n * 60 / (b - a) }'; }
# rate's closing line: "N puzzles: mean G guesses, B backtrack nodes, M mrv
# nodes" and, when a count stopped at --max-nodes (1 million here, about a
# tenth of a second of backtracking), a note: the mean is then a lower bound,
# marked with a "+".
hardness() {
    "$bin" rate --max-nodes 1000000 "$1" | tail -n 1 |
        awk '{ printf "%6.1f %10s %8.0f", $4, sprintf("%.0f%s", $6, /stopped/ ? "+" : ""), $9 }'
}
row() { printf '%-44s %8s %10s %6s %10s %8s\n' "$@"; }

row "generator" "puzzles" "per minute" "guess" "backtrack" "mrv"
for grade in easy medium hard fiendish; do
    start=$(now)
    "$bin" gen --out "$tmp/$grade" --grade "$grade" --count 1 --per-file "$count" --seed 1 >/dev/null
    end=$(now)
    # shellcheck disable=SC2046
    row "sudoku-judge gen --grade $grade" "$count" "$(per_minute "$count" "$start" "$end")" \
        $(hardness "$tmp/$grade/gen-001.in")
done
slow=$(( count < 20 ? count : 20 ))
start=$(now)
"$bin" gen --out "$tmp/slow" --hard-for backtrack --min-nodes 20000000 --count 1 \
    --per-file "$slow" --seed 1 >/dev/null
end=$(now)
# shellcheck disable=SC2046
row "sudoku-judge gen --hard-for backtrack 2e7" "$slow" "$(per_minute "$slow" "$start" "$end")" \
    $(hardness "$tmp/slow/gen-001.in")

if command -v qqwing >/dev/null 2>&1; then
    for difficulty in simple easy intermediate expert; do
        start=$(now)
        qqwing --generate "$count" --difficulty "$difficulty" --one-line >"$tmp/qq-$difficulty.txt"
        end=$(now)
        # shellcheck disable=SC2046
        row "qqwing --difficulty $difficulty" "$count" "$(per_minute "$count" "$start" "$end")" \
            $(hardness "$tmp/qq-$difficulty.txt")
    done
else
    echo "qqwing: SKIP (not installed; apt-get install qqwing)"
fi

hardest="$datasets/puzzles5_forum_hardest_1905_11+.txt"
if [ -f "$hardest" ]; then
    awk '!/^#/ && n < 1000 { print; n++ }' "$hardest" >"$tmp/hardest.txt"
    # shellcheck disable=SC2046
    row "forum_hardest_1905_11+ (first 1000, a set)" 1000 "-" $(hardness "$tmp/hardest.txt")
else
    echo "forum_hardest_1905_11+: SKIP ($hardest is absent; set SUDOKU_JUDGE_DATASETS)"
fi
