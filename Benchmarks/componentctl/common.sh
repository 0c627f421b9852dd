# Shared by the benchmarks (sourced from this folder's scripts, in the tool's package folder): the release
# tool, a scratch folder removed on exit, and the median wall time of a command.
runs=${RUNS:-9}
swift build -c release --static-swift-stdlib --product componentctl 2>&1 | tail -1
tool=$(pwd)/.build/release/componentctl
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
elapsed() {  # the wall time in milliseconds of one run of "$@"
  local start end
  start=$(date +%s%N); "$@" > /dev/null; end=$(date +%s%N)
  echo $(( (end - start) / 1000000 ))
}
measure() {  # the median wall time in milliseconds of "$@" over $runs runs
  for _ in $(seq "$runs"); do elapsed "$@"; done | median
}
measure_pair() {  # the median wall times of the commands (or functions) $1 and $2, run in turn $runs times each, and
  # the median of the ratios of each run of $1 to the run of $2 right after it. In turn, so that a machine whose speed
  # drifts (a VM; the kernel settling for seconds after 20,000 new files) slows both alike and their ratio holds.
  local first=() second=() ratios=() a b
  for _ in $(seq "$runs"); do
    a=$(elapsed "$1"); b=$(elapsed "$2")
    first+=("$a"); second+=("$b"); ratios+=("$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.2f", a / (b > 0 ? b : 1) }')")
  done
  echo "$(printf '%s\n' "${first[@]}" | median) $(printf '%s\n' "${second[@]}" | median) $(printf '%s\n' "${ratios[@]}" | median)"
}
# The synthetic 500-component, 20,000-file workspace, committed in a repository at $1.
synthetic_repository() {
  "$tool" dev generate-workspace "$1" > /dev/null
  git -C "$1" init -q && git -C "$1" config user.name Bench && git -C "$1" config user.email bench@example.com
  git -C "$1" add -A && git -C "$1" commit -qm base
}
