#!/usr/bin/env bash
# Benchmark: does componentctl stay linear in the number of components? check-layers on synthetic
# workspaces of 500 and 5,000 components (4 Swift files each), and `pin` in the 5,000-component one;
# prints the time per component at both sizes and their ratio (goal: at most 1.3x), and check-layers
# at 5,000 components (goal: at most 3 s, release).
set -euo pipefail
cd "$(dirname "$0")/../../Tools/componentctl"
RUNS=${RUNS:-5}
source ../../Benchmarks/componentctl/common.sh
for size in 500 5000; do
  "$tool" dev generate-workspace "$work/w$size" --components "$size" --files $((size * 4)) > /dev/null
  "$tool" --root "$work/w$size" check-layers > /dev/null   # warm the page cache
  eval "check$size=\$(measure \"\$tool\" --root \"\$work/w\$size\" check-layers)"
done
awk -v a="$check500" -v b="$check5000" 'BEGIN {
  printf "check-layers, 500 components     %6d ms  %.3f ms per component\n", a, a / 500
  printf "check-layers, 5,000 components   %6d ms  %.3f ms per component  (goal: at most 3000 ms)\n", b, b / 5000
  printf "ratio per component 5,000 / 500  %.2fx  (goal: at most 1.3x)\n", (b / 5000) / (a / 500)
}'
# pin in the large workspace: the generated components have no integrated manifest, so add one naming a
# business component nothing depends on, release it, and time pin + unpin.
cd "$work/w5000"
component=$(awk '/^  feature[0-9]+:/ { sub(":", "", $1); print $1; exit }' components.yaml)
path=$(awk -v c="  $component:" '$0 == c { getline; print $2; exit }' components.yaml)
printf '// swift-tools-version: 6.0\nimport PackageDescription\nlet package = Package(name: "Synthetic", dependencies: [\n// BEGIN componentctl: components\n    .package(path: "%s"),\n// END componentctl: components\n])\n' "$path" > Package.swift
git init -q && git config user.name Bench && git config user.email bench@example.com && git add -A && git commit -qm bench
"$tool" release "$component" 1.1.0 > /dev/null
pin_once() { "$tool" pin "$component" 1.1.0 && "$tool" unpin "$component"; }
pin=$(measure pin_once)
echo "pin + unpin, 5,000 components     ${pin} ms"
