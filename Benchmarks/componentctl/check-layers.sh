#!/usr/bin/env bash
# Benchmark: check-layers on a synthetic workspace of 500 components and 20,000 Swift files,
# against the anchor of merely reading the same files (in process, and with cat), in the same run.
# "Cold" is a new process each run with the files in the OS page cache; with the cache dropped
# the disk dominates every command alike (see the drop-cache line when run as root).
set -euo pipefail
cd "$(dirname "$0")/../../Tools/componentctl"
runs=${RUNS:-7}
workspace=${WORKSPACE:-.build/bench-workspace}
swift build -c release --static-swift-stdlib --product componentctl 2>&1 | tail -1
tool=.build/release/componentctl
[ -d "$workspace" ] || "$tool" dev generate-workspace "$workspace" --components 500 --files 20000
files=$(find "$workspace" -name '*.swift' -not -name Package.swift)

median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
measure() {  # prints the median wall time in milliseconds of "$@" over $runs runs
  for _ in $(seq "$runs"); do
    start=$(date +%s%N); "$@" > /dev/null; end=$(date +%s%N)
    echo $(( (end - start) / 1000000 ))
  done | median
}
cat_files() { printf '%s\0' $files | xargs -0 cat; }

"$tool" --root "$workspace" check-layers > /dev/null   # warm the page cache once
check=$(measure "$tool" --root "$workspace" check-layers)
read_only=$(measure "$tool" --root "$workspace" dev read-files)
cat_time=$(measure cat_files)
echo "check-layers            ${check} ms   (goal: at most 2000 ms)"
echo "read files, in process  ${read_only} ms"
echo "read files, cat         ${cat_time} ms"
awk -v c="$check" -v r="$read_only" -v k="$cat_time" 'BEGIN {
  printf "ratio check-layers / in-process read  %.2fx  (goal: at most 3x)\n", c / r
  printf "ratio check-layers / cat              %.2fx\n", c / k
}'
once() { start=$(date +%s%N); "$@" > /dev/null; echo $(( ($(date +%s%N) - start) / 1000000 )); }
if [ -w /proc/sys/vm/drop_caches ]; then
  sync; echo 3 > /proc/sys/vm/drop_caches; dropped=$(once "$tool" --root "$workspace" check-layers)
  sync; echo 3 > /proc/sys/vm/drop_caches; cat_dropped=$(once cat_files)
  echo "page cache dropped: check-layers ${dropped} ms, cat ${cat_dropped} ms"
fi
