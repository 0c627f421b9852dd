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
keys() { "$tool" hash --format key; }
status() { git status --porcelain; }
# For a few seconds after 20,000 files are written, hash (which reads the 500 manifests) runs up to twice as slow, and
# git status (which reads no file's content) slows less. Measured then apart; the goals are for a working tree at
# rest, as a team's is.
read -r fresh status_fresh ratio_fresh < <(measure_pair keys status)
sync
sleep 5
read -r clean status_clean ratio_clean < <(measure_pair keys status)
echo "// change" >> Packages/Business/Feature010/Sources/Feature010/File0.swift
read -r dirty status_dirty ratio_dirty < <(measure_pair keys status)
echo "hash, $components keys, committed:        ${clean} ms (goal: at most 500 ms); ${ratio_clean}x git status (goal: at most 3x)"
echo "hash, $components keys, one dirty folder: ${dirty} ms (goal: at most 500 ms); ${ratio_dirty}x git status (goal: at most 3x)"
echo "anchor: git status --porcelain:       ${status_clean} ms committed, ${status_dirty} ms with the dirty folder"
echo "  (each run of hash is followed by one of git status; a ratio is the median of those pairs')"
echo "hash, $components keys, files just written: ${fresh} ms; ${ratio_fresh}x git status (${status_fresh} ms) in the same seconds"
# BASELINE_TOOL=path: another build of componentctl (an earlier commit's), measured on the same repository in this run.
if [ -n "${BASELINE_TOOL:-}" ]; then
  git checkout -q -- . && baseline=$(measure "$BASELINE_TOOL" hash --format key) && now=$(measure "$tool" hash --format key)
  echo "hash, committed: ${now} ms against ${baseline} ms of $BASELINE_TOOL ($(awk -v a="$now" -v b="$baseline" 'BEGIN { printf "%.2f", a / b }')x; goal: at most 1.1x)"
fi
