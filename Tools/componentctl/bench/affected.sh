#!/usr/bin/env bash
# Benchmark: `componentctl affected` on the synthetic 500-component, 20,000-file workspace in git,
# for a change to one foundation component (hundreds of dependents) and to one business component.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-9}
swift build -c release --static-swift-stdlib --product componentctl 2>&1 | tail -1
tool=$(pwd)/.build/release/componentctl
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$tool" dev generate-workspace "$work/repo" > /dev/null
cd "$work/repo"
git init -q && git config user.name Bench && git config user.email bench@example.com && git add -A && git commit -qm base
echo "// change" >> Packages/Foundation/Base003/Sources/Base003/File0.swift && git commit -qam foundation
echo "// change" >> Packages/Business/Feature010/Sources/Feature010/File0.swift && git commit -qam business
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
measure() { for _ in $(seq "$runs"); do s=$(date +%s%N); "$@" > /dev/null; e=$(date +%s%N); echo $(( (e - s) / 1000000 )); done | median; }
wide=$(measure "$tool" affected --base HEAD~2 --head HEAD~1)
narrow=$(measure "$tool" affected --base HEAD~1)
echo "affected, one foundation change: $("$tool" affected --base HEAD~2 --head HEAD~1 --format json | grep -c '"name"') components in ${wide} ms (goal: at most 300 ms)"
echo "affected, one business change:   $("$tool" affected --base HEAD~1 --format json | grep -c '"name"') components in ${narrow} ms (goal: at most 300 ms)"
