#!/usr/bin/env bash
# Benchmark: `componentctl hash` (every component's key) on the synthetic 500-component, 20,000-file
# workspace in git, committed and with one component changed and not committed; the anchor, measured in
# the same run, is `git status --porcelain` on the same repository (the status read every key run needs).
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
median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
measure() { for _ in $(seq "$runs"); do s=$(date +%s%N); "$@" > /dev/null; e=$(date +%s%N); echo $(( (e - s) / 1000000 )); done | median; }
components=$("$tool" hash --format key | wc -l)
clean=$(measure "$tool" hash --format key)
echo "// change" >> Packages/Business/Feature010/Sources/Feature010/File0.swift
dirty=$(measure "$tool" hash --format key)
status=$(measure git status --porcelain)
echo "hash, $components keys, committed:        ${clean} ms (goal: at most 500 ms; $(awk -v a="$clean" -v b="$status" 'BEGIN { printf "%.1f", a / b }')x git status)"
echo "hash, $components keys, one dirty folder: ${dirty} ms (goal: at most 500 ms; $(awk -v a="$dirty" -v b="$status" 'BEGIN { printf "%.1f", a / b }')x git status)"
echo "anchor: git status --porcelain:       ${status} ms"
