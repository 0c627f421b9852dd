#!/usr/bin/env bash
# Benchmark: a cold standalone build of one business component against a cold integrated build of
# the first app, in the same run (goal: at most 35%). Both start from an empty build folder; the copies of
# the Swift packages under /opt/swift-packages are local, so no download is measured.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$root" && git ls-files -z | xargs -0 -I{} cp --parents {} "$work/")
cd "$work"
# A failed build stops the benchmark (set -e sees the assignment fail): a time of nothing is no result.
seconds() { local s; s=$(date +%s%N); "$@" > /dev/null 2>&1 || { echo "build-bench: '$*' failed" >&2; return 1; }; awk -v d=$(( $(date +%s%N) - s )) 'BEGIN { printf "%.1f", d / 1e9 }'; }
tool=$root/Tools/componentctl/.build/debug/componentctl
[ -x "$tool" ] || swift build --package-path "$root/Tools/componentctl" --product componentctl >/dev/null
product=$("$tool" --root "$root" list --apps | awk 'NR == 2 && NF > 1 { print $2 }')
app=$(seconds swift build --product "${product:?components.yaml declares no app}")
echo "cold integrated build of $product: ${app} s"
# COMPONENTS names component folders; by default the first two implementations of the top layer.
default=$("$tool" --root "$root" list --format json | python3 -c '
import json, sys
rows = json.load(sys.stdin)
top = rows[0]["layer"] if rows else ""
print(" ".join(r["path"] for r in rows if r["layer"] == top and r["kind"] == "implementation"][:2]))')
for folder in ${COMPONENTS:-$default}; do
  [ -d "$folder" ] || folder=Packages/Business/$folder
  component=$(basename "$folder")
  rm -rf "$folder/.build"
  alone=$(seconds swift build --package-path "$folder")
  echo "cold standalone $component build (demo included): ${alone} s, ratio $(awk -v a="$alone" -v b="$app" 'BEGIN { printf "%.0f", 100 * a / b }')% (goal: at most 35%)"
done
