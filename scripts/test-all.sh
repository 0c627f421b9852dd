#!/usr/bin/env bash
# Runs every test: componentctl's own package, `componentctl check-layers` on the workspace, the
# root package (the integrated App), then each component's own package, because root
# `swift test` never runs the tests of its dependencies.
set -uo pipefail
cd "$(dirname "$0")/.."
log_dir=.build/test-logs
mkdir -p "$log_dir"
passed=0
failed=()

step() {  # step NAME COMMAND...: runs the command, logs it, counts the result
  local name=$1; shift
  echo "=== $name"
  if "$@" 2>&1 | tee "$log_dir/$name.log"; then
    passed=$((passed + 1))
  else
    failed+=("$name")
  fi
}

step componentctl swift test --package-path Tools/componentctl
step check-layers Tools/componentctl/.build/debug/componentctl check-layers
step pins-in-sync Tools/componentctl/.build/debug/componentctl sync --check
step fault-injection Tools/componentctl/tests/fault-injection.sh
for path in . $(sed -n 's/^    path: *//p' components.yaml); do
  step "$(basename "$(cd "$path" && pwd)")" swift test --package-path "$path"
done

echo
if [ ${#failed[@]} -gt 0 ]; then
  echo "Failed (logs in $log_dir):"
  printf '  %s\n' "${failed[@]}"
fi
echo "test steps: $passed passed, ${#failed[@]} failed"
[ ${#failed[@]} -eq 0 ]
