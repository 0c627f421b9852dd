#!/usr/bin/env bash
# Benchmark: `componentctl affected` on the synthetic 500-component, 20,000-file workspace in git,
# for a change to one foundation component (hundreds of dependents) and to one business component.
set -euo pipefail
cd "$(dirname "$0")/.."
source bench/common.sh
synthetic_repository "$work/repo"
cd "$work/repo"
echo "// change" >> Packages/Foundation/Base003/Sources/Base003/File0.swift && git commit -qam foundation
echo "// change" >> Packages/Business/Feature010/Sources/Feature010/File0.swift && git commit -qam business
wide=$(measure "$tool" affected --base HEAD~2 --head HEAD~1)
narrow=$(measure "$tool" affected --base HEAD~1)
echo "affected, one foundation change: $("$tool" affected --base HEAD~2 --head HEAD~1 --format json | grep -c '"name"') components in ${wide} ms (goal: at most 300 ms)"
echo "affected, one business change:   $("$tool" affected --base HEAD~1 --format json | grep -c '"name"') components in ${narrow} ms (goal: at most 300 ms)"
