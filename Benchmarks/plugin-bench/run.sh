#!/usr/bin/env bash
# Builds plugin-bench in release and runs it: its own item page before and with its plugins (ratio and
# per-plugin cost), then the container's allocations per plugin with ordo-one's malloc interposer
# preloaded (a missed allocation goal exits 1; timings only report, as they follow the machine's load).
set -euo pipefail
cd "$(dirname "$0")"
# A path dependency's new files are listed again only after its build description is dropped.
rm -f .build/release.yaml .build/*/release/description.json
swift build -c release
bin=$(swift build -c release --show-bin-path)
"$bin/plugin-bench"
echo
LD_PRELOAD="$bin/libMallocInterposerSwift.so" "$bin/plugin-bench" --allocations
