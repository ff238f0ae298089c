#!/usr/bin/env bash
# Runs every libFuzzer target for SECONDS each (default 60) on a copy of its seed corpus and
# prints executions and crashes; exits non-zero on any crash. Usage: tests/fuzz/run.sh [SECONDS]
set -uo pipefail
seconds=${1:-60}
here=$(cd "$(dirname "$0")" && pwd)
build="$here/../../build/fuzz/tests/fuzz"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
printf '%-22s %12s %8s\n' target executions crashes
for target in estimate config gguf safetensors json; do
  mkdir -p "$work/$target"
  cp "$here/corpus/$target/"* "$work/$target/" 2>/dev/null
  log="$work/$target.log"
  "$build/fuzz_$target" "$work/$target" -max_total_time="$seconds" -max_len=65536 -rss_limit_mb=2048 \
    -timeout=10 -artifact_prefix="$work/" -print_final_stats=1 >"$log" 2>&1
  code=$?
  runs=$(grep -Eo 'Done [0-9]+ runs' "$log" | grep -Eo '[0-9]+' | tail -1)
  crashes=0
  if [ "$code" -ne 0 ]; then
    crashes=1
    status=1
    tail -30 "$log"
  fi
  printf '%-22s %12s %8s\n' "fuzz_$target" "${runs:-0}" "$crashes"
done
exit $status
