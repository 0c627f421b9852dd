#!/usr/bin/env bash
# Benchmark: `componentctl hash` (every component's key) on the synthetic 500-component, 20,000-file
# workspace in git, committed and with one component changed and not committed; the anchor, measured in
# the same run, is `git status --porcelain` on the same repository (the status read every key run needs).
set -euo pipefail
cd "$(dirname "$0")/../../Tools/componentctl"
source ../../Benchmarks/componentctl/common.sh
synthetic_repository "$work/repo"
cd "$work/repo"
# git status first: it rewrites the index with the files' times, as any git command a developer runs does; until then a
# file written in the second of its commit is "racy", and every status (git's or libgit2's) hashes its content again.
git status --porcelain > /dev/null
components=$("$tool" hash --format key | wc -l)
clean=$(measure "$tool" hash --format key)
echo "// change" >> Packages/Business/Feature010/Sources/Feature010/File0.swift
dirty=$(measure "$tool" hash --format key)
status=$(measure git status --porcelain)
echo "hash, $components keys, committed:        ${clean} ms (goal: at most 500 ms; $(awk -v a="$clean" -v b="$status" 'BEGIN { printf "%.1f", a / b }')x git status)"
echo "hash, $components keys, one dirty folder: ${dirty} ms (goal: at most 500 ms; $(awk -v a="$dirty" -v b="$status" 'BEGIN { printf "%.1f", a / b }')x git status)"
echo "anchor: git status --porcelain:       ${status} ms"
# BASELINE_TOOL=path: another build of componentctl (an earlier commit's), measured on the same repository in this run.
if [ -n "${BASELINE_TOOL:-}" ]; then
  git checkout -q -- . && baseline=$(measure "$BASELINE_TOOL" hash --format key) && now=$(measure "$tool" hash --format key)
  echo "hash, committed: ${now} ms against ${baseline} ms of $BASELINE_TOOL ($(awk -v a="$now" -v b="$baseline" 'BEGIN { printf "%.2f", a / b }')x; goal: at most 1.1x)"
fi
