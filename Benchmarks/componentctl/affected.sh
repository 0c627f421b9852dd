#!/usr/bin/env bash
# Benchmark: `componentctl affected` on the synthetic 500-component, 20,000-file workspace in git,
# for a change to one foundation component (hundreds of dependents) and to one business component.
set -euo pipefail
cd "$(dirname "$0")/../../Tools/componentctl"
source ../../Benchmarks/componentctl/common.sh
synthetic_repository "$work/repo"
cd "$work/repo"
echo "// change" >> Packages/Foundation/Base003/Sources/Base003/File0.swift && git commit -qam foundation
echo "// change" >> Packages/Business/Feature010/Sources/Feature010/File0.swift && git commit -qam business
wide=$(measure "$tool" affected --base HEAD~2 --head HEAD~1)
narrow=$(measure "$tool" affected --base HEAD~1)
echo "affected, one foundation change: $("$tool" affected --base HEAD~2 --head HEAD~1 --format json | grep -c '"name"') components in ${wide} ms (goal: at most 300 ms)"
echo "affected, one business change:   $("$tool" affected --base HEAD~1 --format json | grep -c '"name"') components in ${narrow} ms (goal: at most 300 ms)"
# BASELINE_TOOL=path: another build of componentctl (an earlier commit's), measured on the same repository in this run.
if [ -n "${BASELINE_TOOL:-}" ]; then
  baseline=$(measure "$BASELINE_TOOL" affected --base HEAD~2 --head HEAD~1) && now=$(measure "$tool" affected --base HEAD~2 --head HEAD~1)
  echo "affected, one foundation change: ${now} ms against ${baseline} ms of $BASELINE_TOOL ($(awk -v a="$now" -v b="$baseline" 'BEGIN { printf "%.2f", a / b }')x; goal: at most 1.1x)"
fi
