#!/bin/sh
# Instructions WebAssembly runs for the first rank of the whole catalog, a warm rank and a page
# recompute (issue #22): figures that do not swing with the VM as times do. valgrind counts node
# runs doing two amounts of work (tests/bench/instruction_run.mjs), V8 compiling every function
# with TurboFan up front on one thread and without timers (--predictable: runs agree to the
# million; without it they spread by 3%), and this prints the difference. Needs valgrind
# (apt install valgrind); ~6 min. Usage:
#   tests/bench/wasm_instructions.sh [dist/llmcalc_core.js]
set -e
module=${1:-dist/llmcalc_core.js}
here=$(dirname "$0")
count() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null \
    node --predictable --single-threaded --no-liftoff --no-wasm-lazy-compilation "$here/instruction_run.mjs" "$module" "$1" 2>&1 |
    sed -n 's/.*Collected : //p'
}
start=$(count start)
first_rank=$(count first-rank)
rank_again=$(count rank-again)
warm_ranks=$(count warm-ranks)
pages=$(count pages)
more_pages=$(count more-pages)
echo "first rank: $(( (first_rank - start) / 1000000 ))M instructions ($module)"
echo "warm rank: $(( (warm_ranks - rank_again) / 20 / 1000000 ))M instructions each"
echo "page recompute (estimate + explore): $(( (more_pages - pages) / 50 / 1000000 )).$(( (more_pages - pages) / 50 / 100000 % 10 ))M instructions each"
