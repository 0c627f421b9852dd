#!/usr/bin/env bash
# Benchmark: materializing a 200-file component from git objects vs `git archive | tar x` of the
# same folder, and a whole `componentctl pin`, measured in the same run (medians of $RUNS).
set -euo pipefail
cd "$(dirname "$0")/../../Tools/componentctl"
runs=${RUNS:-9}
swift build -c release --static-swift-stdlib --product componentctl 2>&1 | tail -1
tool=$(pwd)/.build/release/componentctl
# On tmpfs when there is one: creating 200 files on this VM's disk varies from 30 to 230 ms run to run.
work=$(mktemp -d -p "$( [ -d /dev/shm ] && echo /dev/shm || echo /tmp )")
trap 'rm -rf "$work"' EXIT
"$tool" dev generate-workspace "$work/repo" --components 40 --files 1600 > /dev/null
cd "$work/repo"
# The benchmark's component: a business implementation with 200 files (40 files per component as generated, so add 160).
component=Packages/Business/Feature000
for i in $(seq 40 199); do cp "$component/Sources/Feature000/File0.swift" "$component/Sources/Feature000/Extra$i.swift"; done
printf '// swift-tools-version: 6.0\nimport PackageDescription\nlet package = Package(name: "Synthetic", dependencies: [\n// BEGIN componentctl: components\n    .package(path: "%s"),\n// END componentctl: components\n])\n' "$component" > Package.swift
git init -q && git config user.name Bench && git config user.email bench@example.com && git add -A && git commit -qm bench
git tag -a feature000@1.0.0 -m bench
echo "component files: $(git ls-tree -r --name-only feature000@1.0.0 "$component" | wc -l)"

median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
clock() { date +%s%N; }
measure() {  # median microseconds of: prepare-command; timed-command (both strings, eval'd)
  for _ in $(seq "$runs"); do
    eval "$1"; start=$(clock); eval "$2" > /dev/null; end=$(clock); echo $(( (end - start) / 1000 ))
  done | median
}
# Interleaved round by round, so both meet the same file-system state: creating 200 files is mostly
# ext4 inode allocation, which is slower right after files were deleted.
ours_samples=(); command_samples=(); archive_samples=()
for _ in $(seq "$runs"); do
  rm -rf out; start=$(clock); inside=$("$tool" dev materialize feature000@1.0.0 "$component" out --timing 2>&1)
  command_samples+=($(( ($(clock) - start) / 1000 ))); ours_samples+=("$inside")
  rm -rf out; mkdir out; start=$(clock); git archive feature000@1.0.0 "$component" | tar -x -C out; archive_samples+=($(( ($(clock) - start) / 1000 )))
done
ours=$(printf '%s\n' "${ours_samples[@]}" | median)
whole=$(printf '%s\n' "${command_samples[@]}" | median)
archive=$(printf '%s\n' "${archive_samples[@]}" | median)
pin=$(measure "$tool unpin feature000 > /dev/null" "$tool pin feature000 1.0.0")
echo "materialize (libgit2, as pin does it, in process)   ${ours} us"
echo "dev materialize command (with process start-up)      ${whole} us"
echo "git archive | tar x                                  ${archive} us"
echo "whole pin                                            ${pin} us   (goal: at most 1500000 us)"
awk -v o="$ours" -v w="$whole" -v a="$archive" 'BEGIN {
  printf "ratio materialize / git archive            %.2fx  (goal: at most 1.2x)\n", o / a
  printf "ratio whole command / git archive          %.2fx  (includes our ~10 ms process start-up)\n", w / a
}'
