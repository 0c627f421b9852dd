#!/usr/bin/env bash
# Benchmark: `componentctl api-diff` of one interface package (the workspace's first interface, from its
# release to a working tree with one added protocol requirement), cold (no build folder, no kept dump)
# and warm (run again), against one plain `swift build` of that package, cold and warm, in the same run.
set -euo pipefail
cd "$(dirname "$0")/../../Tools/componentctl"
swift build --product componentctl 2>&1 | tail -1
tool=$(pwd)/.build/debug/componentctl
root=$(cd ../.. && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
git clone -q "$root" "$work/ws"
cd "$work/ws"
git config user.email bench@example.com && git config user.name Bench
interface=$("$tool" list --format json | python3 -c 'import json, sys; print(next(c["name"] for c in json.load(sys.stdin) if c["kind"] == "interface"))')
path=$("$tool" list --format json | python3 -c "import json, sys; print(next(c['path'] for c in json.load(sys.stdin) if c['name'] == '$interface'))")
version=$("$tool" list --format json | python3 -c "import json, sys; print(next(c['version'] for c in json.load(sys.stdin) if c['name'] == '$interface'))")
"$tool" release "$interface" "$version" >/dev/null 2>&1 || "$tool" release "$interface" "$(python3 -c "v='$version'.split('.'); print(f'{v[0]}.{v[1]}.{int(v[2])+1}')")" >/dev/null
file=$(find "$path/Sources" -name '*.swift' | head -1)
printf '\n/// Added for the benchmark.\npublic protocol BenchAddition {\n    func measured() -> Int\n}\n' >> "$file"
ms() { python3 -c "import time; print(int(time.monotonic() * 1000))"; }

rm -rf .build/componentctl/api .build/componentctl/api-dumps
start=$(ms); "$tool" api-diff "$interface" >/dev/null || true; cold=$(( $(ms) - start ))
start=$(ms); "$tool" api-diff "$interface" >/dev/null || true; warm=$(( $(ms) - start ))
rm -rf "$work/scratch"
start=$(ms); swift build --package-path "$path" --scratch-path "$work/scratch" >/dev/null 2>&1; build_cold=$(( $(ms) - start ))
start=$(ms); swift build --package-path "$path" --scratch-path "$work/scratch" >/dev/null 2>&1; build_warm=$(( $(ms) - start ))
python3 - "$interface" "$cold" "$warm" "$build_cold" "$build_warm" <<'PY'
import sys
name, cold, warm, build_cold, build_warm = sys.argv[1], *map(int, sys.argv[2:])
print("api-diff of %s (its release against the working tree, both built):" % name)
print("  cold %6d ms = %.2fx one cold 'swift build' of the package (%d ms)" % (cold, cold / build_cold, build_cold))
print("  warm %6d ms = %.2fx one warm 'swift build' (%d ms); the release's API is kept by its tree id" % (warm, warm / max(build_warm, 1), build_warm))
PY
