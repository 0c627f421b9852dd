#!/usr/bin/env bash
# Bundle apps, measured in one run (debug builds, the way a developer iterates):
#   - the cold build of each app of components.yaml (a new, empty build folder each) against the first
#     app, which is the anchor: an app of fewer components builds less;
#   - the incremental build after a change to one source file of a component every app contains (a
#     comment line appended, so the compiler sees new bytes; the file is restored at the end);
#   - `componentctl run --focus COMPONENT` (FOCUS, default: the first app's first) from a cold build folder against the
#     first app's cold build and run: working on one component inside a real shell.
# Timings report ratios against the anchor measured in this run; they follow the machine's load, so
# nothing fails on them.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
tool=$root/Tools/componentctl/.build/debug/componentctl
[ -x "$tool" ] || swift build --package-path Tools/componentctl --product componentctl
scratch=$root/.build-bench-apps
file=
restore() { if [ -n "$file" ] && [ -f "$scratch/original.swift" ]; then cp "$scratch/original.swift" "$file"; fi; rm -rf "$scratch"; }
trap restore EXIT
rm -rf "$scratch"
"$tool" sync >/dev/null

now() { date +%s.%N; }
seconds() { python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.1f}')" "$1" "$2"; }
ratio() { python3 -c "import sys; print(f'{float(sys.argv[1]) / float(sys.argv[2]):.2f}x')" "$1" "$2"; }

mapfile -t apps < <("$tool" list --apps | awk 'NR > 1 && NF > 1 { print $1 " " $2 }')
[ "${#apps[@]}" -ge 1 ] || { echo "apps-bench: components.yaml declares no apps"; exit 1; }
anchor=${apps[0]%% *}
anchor_product=${apps[0]##* }

declare -A cold
echo "== Cold builds (an empty build folder each)"
for entry in "${apps[@]}"; do
  name=${entry%% *} product=${entry##* }
  start=$(now)
  swift build --product "$product" --scratch-path "$scratch/$name" 2>&1 | tail -n 1
  cold[$name]=$(seconds "$start" "$(now)")
  echo "  $name ($product): ${cold[$name]} s"
done

# The first component every app lists, changed (a comment appended) before each rebuild.
shared=$("$tool" list --apps --format json | python3 -c '
import json, sys
apps = json.load(sys.stdin)
common = [c for c in apps[0]["components"] if all(c in a["components"] for a in apps)]
print(common[0] if common else "")')
declare -A incremental
if [ -n "$shared" ]; then
  path=$("$tool" list --format json | python3 -c 'import json, sys; print(next(r["path"] for r in json.load(sys.stdin) if r["name"] == sys.argv[1]))' "$shared")
  file=$(find "$path/Sources" -name '*.swift' | sort | head -n 1)
  cp "$file" "$scratch/original.swift"
  echo "== Incremental builds after a change to $file (median of 3)"
  for entry in "${apps[@]}"; do
    name=${entry%% *} product=${entry##* }
    runs=()
    for run in 1 2 3; do
      echo "// apps-bench $name $run" >>"$file"
      start=$(now)
      swift build --product "$product" --scratch-path "$scratch/$name" >/dev/null 2>&1
      runs+=("$(seconds "$start" "$(now)")")
    done
    incremental[$name]=$(printf '%s\n' "${runs[@]}" | sort -n | sed -n 2p)
    echo "  $name: ${incremental[$name]} s (runs: ${runs[*]})"
  done
fi

# The first app's first component, unless FOCUS names another.
focus=${FOCUS:-$("$tool" list --apps --format json | python3 -c 'import json, sys; print(json.load(sys.stdin)[0]["components"][0])')}
echo "== run --focus $focus from a cold build folder, against $anchor built cold and run"
rm -rf "$root/.build/componentctl/focus-$focus"
# Each run gets an empty data folder: its variable carries the workspace's settings prefix.
data_dir=$("$tool" list --apps --format json | python3 -c 'import json, sys; print(json.load(sys.stdin)[0]["settingsPrefix"] + "_DATA_DIR")')
start=$(now)
env "$data_dir=$(mktemp -d)" "$tool" run --focus "$focus" -- help >/dev/null
focused=$(seconds "$start" "$(now)")
start=$(now)
env "$data_dir=$(mktemp -d)" "$scratch/$anchor/debug/$anchor_product" help >/dev/null
full=$(python3 -c "import sys; print(f'{float(sys.argv[1]) + float(sys.argv[2]) - float(sys.argv[3]):.1f}')" "${cold[$anchor]}" "$(now)" "$start")

echo
echo "Results (anchor: $anchor, measured in this run)"
printf '  %-34s %10s %10s\n' "" "seconds" "vs anchor"
for entry in "${apps[@]}"; do
  name=${entry%% *}
  printf '  %-34s %10s %10s\n' "cold build of $name" "${cold[$name]}" "$(ratio "${cold[$name]}" "${cold[$anchor]}")"
done
for entry in "${apps[@]}"; do
  name=${entry%% *}
  [ -n "${incremental[$name]:-}" ] || continue
  printf '  %-34s %10s %10s\n' "incremental build of $name" "${incremental[$name]}" "$(ratio "${incremental[$name]}" "${incremental[$anchor]}")"
done
printf '  %-34s %10s %10s\n' "$anchor: cold build + run" "$full" "1.00x"
printf '  %-34s %10s %10s\n' "run --focus $focus (cold)" "$focused" "$(ratio "$focused" "$full")"
