#!/usr/bin/env bash
# Runs every test: the root package (the integrated App), then each component's own package,
# because root `swift test` never runs the tests of its dependencies.
set -uo pipefail
cd "$(dirname "$0")/.."
log_dir=.build/test-logs
mkdir -p "$log_dir"
paths=(. $(sed -n 's/^    path: *//p' components.yaml))
passed=0
failed=()
for path in "${paths[@]}"; do
  name=$(basename "$(cd "$path" && pwd)")
  echo "=== swift test --package-path $path"
  if swift test --package-path "$path" 2>&1 | tee "$log_dir/$name.log"; then
    passed=$((passed + 1))
  else
    failed+=("$path")
  fi
done
echo
if [ ${#failed[@]} -gt 0 ]; then
  echo "Failed packages (logs in $log_dir):"
  printf '  %s\n' "${failed[@]}"
fi
echo "packages: $passed passed, ${#failed[@]} failed"
[ ${#failed[@]} -eq 0 ]
