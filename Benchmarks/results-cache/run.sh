#!/usr/bin/env bash
# Benchmark: `make test` in a fresh clone with an empty results cache (the anchor), the same again with
# nothing changed, and again after one business component's source changed (committed); prints the wall
# times, their ratios to the first, and which steps and jobs ran each time (the rest were cached).
# About 50 minutes on a 2-core machine. KEEP=1 keeps the clone and its logs.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
[ "${KEEP:-}" = 1 ] && echo "cache-bench: the clone stays in $work" || trap 'rm -rf "$work"' EXIT
git clone -q "$root" "$work/clone"
export COMPONENTCTL_CACHE="$work/results"
cd "$work/clone"
tool=Tools/componentctl/.build/debug/componentctl

# One run of make test: its wall time in seconds; its log and the steps' logs are kept under $work/NAME.
run() {
  local name=$1 start
  start=$(date +%s)
  if ! make test > "$work/$name.log" 2>&1; then
    echo "cache-bench: make test ($name) failed:" >&2
    tail -n 30 "$work/$name.log" >&2
    exit 1
  fi
  echo $(( $(date +%s) - start ))
  cp -r .build/test-logs "$work/$name-steps"
}
# What ran in a run: the steps that were not cached, and the components and apps tested (not cached).
ran() {
  local steps=$work/$1-steps jobs
  jobs=$(cat "$steps/components.log" "$steps/app.log" 2>/dev/null | awk '/^\[[0-9]+\/[0-9]+\] .*  ok  / { sub(/^\[[0-9\/]+\] /, ""); sub(/  ok  .*/, ""); printf "%s, ", $0 }')
  local log name ran=""
  for log in "$steps"/*.log; do
    name=$(basename "$log" .log)
    # Anchored: a step's log may quote nested steps' "cached" lines (template-copy runs make test in a copy).
    grep -q "^$name: cached (key " "$log" || ran+="$name "
  done
  echo "steps run: $ran"
  echo "jobs tested: ${jobs%, }"
}

first=$(run first)
second=$(run second)
# A business implementation: the first the workspace lists.
component=$("$tool" list | awk 'NR == 2 { top = $2 } NR > 1 && $2 == top && $3 == "implementation" { print $1; exit }')
folder=$("$tool" list --format json | python3 -c "import json,sys; print(next(c['path'] for c in json.load(sys.stdin) if c['name'] == '$component'))")
source=$(find "$folder/Sources" -name '*.swift' | sort | head -n 1)
echo "// cache-bench: an edit" >> "$source"
git -c user.name=Bench -c user.email=bench@example.com commit -qam "cache-bench: edit $component"
edited=$(run edited)

ratio() { awk -v a="$1" -v b="$first" 'BEGIN { printf "%.3f", a / b }'; }
echo "make test, fresh clone, empty results cache:  ${first} s (the anchor)"
ran first | sed 's/^/  /'
echo "make test again, nothing changed:             ${second} s = $(ratio "$second") of the first (goal: at most 0.10)"
ran second | sed 's/^/  /'
echo "make test after editing $component:  ${edited} s = $(ratio "$edited") of the first"
ran edited | sed 's/^/  /'
