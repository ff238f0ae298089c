#!/bin/sh
# Instructions the first rank of the whole catalog runs in WebAssembly (issue #22), a figure
# that does not swing with the VM as times do: valgrind counts a node run with the rank and one
# without, V8 compiling every function with TurboFan up front on one thread and without timers
# (--predictable: runs agree to the million; without it they spread by 3%), and prints the
# difference. Needs valgrind (apt install valgrind). Usage:
#   tests/bench/wasm_instructions.sh [dist/llmcalc_core.js]
set -e
module=${1:-dist/llmcalc_core.js}
here=$(dirname "$0")
count() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null \
    node --predictable --single-threaded --no-liftoff --no-wasm-lazy-compilation "$here/first_rank_run.mjs" "$module" "$1" 2>&1 |
    sed -n 's/.*Collected : //p'
}
with=$(count rank)
without=$(count none)
echo "first rank: $(( (with - without) / 1000000 ))M instructions ($module)"
