#!/usr/bin/env bash
# Benchmark: `init` and `check-layers` with the manifest cache cold (a fresh $XDG_CACHE_HOME: every manifest the
# static reader is unsure of goes to SwiftPM) and warm, on the synthetic 500-component workspace (without its
# components.yaml, as a team's repository would be) and, when REPOSITORY names one (a working tree or a repository
# to clone), on a copy of a real repository.
# The anchor, in the same run: reading the same Swift files in process (`dev read-files`), as check-layers.sh does.
set -euo pipefail
cd "$(dirname "$0")/../../Tools/componentctl"
source ../../Benchmarks/componentctl/common.sh

run_on() {  # $1: a label, $2: a repository folder without components.yaml
  local folder=$2 cache
  cache=$(mktemp -d "$work/cache.XXXX")
  local init_cold init_warm check_cold check_warm read
  init_cold=$(cd "$folder" && rm -f components.yaml componentctl-baseline.json && XDG_CACHE_HOME=$cache once "$tool" init)
  init_warm=$(cd "$folder" && rm -f components.yaml componentctl-baseline.json && XDG_CACHE_HOME=$cache once "$tool" init)
  rm -rf "$cache" && mkdir -p "$cache"
  check_cold=$(XDG_CACHE_HOME=$cache once "$tool" --root "$folder" check-layers)
  check_warm=$(XDG_CACHE_HOME=$cache measure "$tool" --root "$folder" check-layers)
  read=$(XDG_CACHE_HOME=$cache measure "$tool" --root "$folder" dev read-files)
  local packages
  packages=$(grep -c '^    path: ' "$folder/components.yaml")
  echo "$1 ($packages packages): init cold ${init_cold} ms, warm ${init_warm} ms; check-layers cold ${check_cold} ms, warm ${check_warm} ms; read files ${read} ms"
  awk -v c="$check_warm" -v r="$read" 'BEGIN { printf "  ratio warm check-layers / in-process read  %.2fx\n", c / r }'
}
once() { local start; start=$(date +%s%N); "$@" > /dev/null; echo $(( ($(date +%s%N) - start) / 1000000 )); }

synthetic="$work/synthetic"
"$tool" dev generate-workspace "$synthetic" --components 500 --files 20000 > /dev/null
rm "$synthetic/components.yaml"
git -C "$synthetic" init -q
run_on "synthetic" "$synthetic"
if [ -n "${REPOSITORY:-}" ]; then
  # A working tree is copied as it is (a clone of a snapshot may lack large files); anything else is cloned.
  if [ -d "$REPOSITORY/.git" ]; then cp -a "$REPOSITORY" "$work/real"; else git clone -q "$REPOSITORY" "$work/real"; fi
  run_on "$(basename "$REPOSITORY")" "$work/real"
  echo "  goal: warm check-layers at most 1000 ms on about 30 real packages"
fi
