# Shared by the benchmarks (sourced from this folder's scripts, in the tool's package folder): the release
# tool, a scratch folder removed on exit, and the median wall time of a command.
runs=${RUNS:-9}
swift build -c release --static-swift-stdlib --product componentctl 2>&1 | tail -1
tool=$(pwd)/.build/release/componentctl
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
measure() {  # the median wall time in milliseconds of "$@" over $runs runs
  for _ in $(seq "$runs"); do
    start=$(date +%s%N); "$@" > /dev/null; end=$(date +%s%N)
    echo $(( (end - start) / 1000000 ))
  done | median
}
# The synthetic 500-component, 20,000-file workspace, committed in a repository at $1.
synthetic_repository() {
  "$tool" dev generate-workspace "$1" > /dev/null
  git -C "$1" init -q && git -C "$1" config user.name Bench && git -C "$1" config user.email bench@example.com
  git -C "$1" add -A && git -C "$1" commit -qm base
}
