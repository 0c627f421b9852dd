#!/usr/bin/env bash
# Benchmark: every component built alone in the shared scratch folder (the default), against the integrated
# build of every app (goals: at most 1.3x its time and 1.3x its disk), and `test --standalone --all` against each
# package in a folder of its own; then both modes on a generated 100-component workspace, to show how each grows.
# Every figure is one cold run (empty build folders) in the same run; the Swift packages come from local copies.
set -euo pipefail
cd "$(dirname "$0")/../../Tools/componentctl"
source ../../Benchmarks/componentctl/common.sh
root=$(cd ../.. && pwd)
export COMPONENTCTL_CACHE=off
seconds() {
  local s; s=$(date +%s%N)
  "$@" > "$work/last.log" 2>&1 || { echo "failed: $*" >&2; tail -20 "$work/last.log" >&2; exit 1; }
  awk -v d=$(( $(date +%s%N) - s )) 'BEGIN { printf "%.1f", d / 1e9 }'
}
megabytes() { du -smc "$@" | tail -1 | cut -f1; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2fx", a / b }'; }
package_folders() { find Packages -mindepth 3 -maxdepth 3 -name .build -type d; }

copy="$work/workspace"
mkdir -p "$copy"
(cd "$root" && git ls-files -z | xargs -0 -I{} cp --parents {} "$copy/")
cd "$copy"

integrated=$(seconds swift build)
integrated_mb=$(megabytes .build)
rm -rf .build
shared=$(seconds "$tool" build --standalone --all)
shared_mb=$(megabytes .build/componentctl-shared)
echo "this workspace, build: integrated (every app) ${integrated} s, ${integrated_mb} MB"
echo "  build --standalone --all, shared: ${shared} s ($(ratio "$shared" "$integrated"), goal at most 1.3x), ${shared_mb} MB ($(ratio "$shared_mb" "$integrated_mb"), goal at most 1.3x)"

rm -rf .build
shared_test=$(seconds "$tool" test --standalone --all)
shared_test_mb=$(megabytes .build/componentctl-shared)
rm -rf .build
separate_test=$(seconds "$tool" test --standalone --all --scratch package)
# shellcheck disable=SC2046
separate_test_mb=$(megabytes $(package_folders))
echo "  test --standalone --all: shared ${shared_test} s, ${shared_test_mb} MB; each package its own folder ${separate_test} s, ${separate_test_mb} MB"
echo "  shared against separate: $(ratio "$shared_test" "$separate_test") the time, $(ratio "$shared_test_mb" "$separate_test_mb") the disk"

generated="$work/generated"
"$tool" dev generate-workspace "$generated" --components 100 --files 600 > /dev/null
cd "$generated"
git init -q && git config user.name Bench && git config user.email bench@example.com && git add -A && git commit -qm base
generated_shared=$(seconds "$tool" build --standalone --all)
generated_shared_mb=$(megabytes .build/componentctl-shared)
generated_separate=$(seconds "$tool" build --standalone --all --scratch package)
# shellcheck disable=SC2046
generated_separate_mb=$(megabytes $(package_folders))
echo "generated, 100 components and 600 files, build --standalone --all:"
echo "  shared ${generated_shared} s, ${generated_shared_mb} MB; each package its own folder ${generated_separate} s, ${generated_separate_mb} MB"
echo "  shared against separate: $(ratio "$generated_shared" "$generated_separate") the time, $(ratio "$generated_shared_mb" "$generated_separate_mb") the disk"
