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
seconds() { local s; s=$(date +%s%N); "$@" > /dev/null 2>&1; awk -v d=$(( $(date +%s%N) - s )) 'BEGIN { printf "%.1f", d / 1e9 }'; }
tool=$root/Tools/componentctl/.build/debug/componentctl
[ -x "$tool" ] || swift build --package-path "$root/Tools/componentctl" --product componentctl >/dev/null
product=$("$tool" --root "$root" list --apps | awk 'NR == 2 && NF > 1 { print $2 }')
app=$(seconds swift build --product "${product:?components.yaml declares no app}")
echo "cold integrated build of $product: ${app} s"
for component in ${COMPONENTS:-Product Cart}; do
  rm -rf "Packages/Business/$component/.build"
  alone=$(seconds swift build --package-path "Packages/Business/$component")
  echo "cold standalone $component build (demo included): ${alone} s, ratio $(awk -v a="$alone" -v b="$app" 'BEGIN { printf "%.0f", 100 * a / b }')% (goal: at most 35%)"
done
