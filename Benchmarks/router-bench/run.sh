#!/usr/bin/env bash
# Builds router-bench in release and runs it: the timings (skipped with --allocations), then the
# allocation counts with ordo-one's malloc interposer preloaded. Allocation counts do not depend on
# the machine's load, so `make test` runs that part always; the timings are goals for `make bench`,
# enforced (a missed goal fails) only with ROUTER_BENCH_ENFORCE=1.
set -euo pipefail
cd "$(dirname "$0")"
# SwiftPM reuses a path dependency's old file list after files are added to it (the build fails
# with "cannot find ... in scope"); removing the build description makes it list them again.
rm -f .build/release.yaml .build/*/release/description.json
swift build -c release
bin=$(swift build -c release --show-bin-path)
if [ "${1:-}" != --allocations ]; then
  "$bin/router-bench"
  echo
fi
LD_PRELOAD="$bin/libMallocInterposerSwift.so" "$bin/router-bench" --allocations
