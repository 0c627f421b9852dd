#!/usr/bin/env bash
# Runs every test, one step each, in this order:
#   - lint: swift-format's lint of every Swift file;
#   - componentctl, componentctl-builds, componentctl-live: the tool's own tests, then those that build real
#     packages (minutes), then those on a copy of the live workspace;
#   - check-layers and pins-in-sync: the tool on this workspace;
#   - workflow: actionlint and the schema of the GitHub Actions workflows;
#   - fault-injection: kills at random points of pin, release and sync;
#   - affected-oracle: `affected` and keys against an oracle written apart from the tool;
#   - doc-examples: the code examples of docs/routes.md compiled into a package of their own;
#   - components: every component's own package, built and tested alone;
#   - app: the integrated tests, once for each app (root `swift test` never runs its dependencies' tests);
#   - router-allocations: the router's allocation counts (zero for a static hit);
#   - remove-samples: every top-layer component removed in a copy, which must still check and build;
#   - new-workspace: `componentctl create` makes Notes; two features added, `make app` and `make test` pass there
#     (NEW_WORKSPACE_CHECK=0 skips it);
#   - template-copy: a copy with a component and a plugin added and one component removed, where the steps
#     that look at the workspace run again (TEMPLATE_COPY_CHECK=0 skips it).
# ROUTER_BENCH=1 also runs the router's timed goals and fails on a missed one (off by default: timings follow load).
set -uo pipefail
cd "$(dirname "$0")/.."
# The tests make thousands of temporary folders (gigabytes of scratch builds): all go in one, removed at the end.
run_tmp=$(mktemp -d "${TMPDIR:-/tmp}/componentctl-test-run.XXXXXX")
trap 'chmod -R u+w "$run_tmp" 2>/dev/null; rm -rf "$run_tmp"' EXIT
export TMPDIR=$run_tmp
log_dir=.build/test-logs
mkdir -p "$log_dir"
tool=Tools/componentctl/.build/debug/componentctl
passed=0
failed=()
summary=()

step() {  # step NAME COMMAND...: runs the command, logs it, counts the result and its time
  local name=$1 start=$SECONDS result
  shift
  echo "=== $name: $*"
  if "$@" 2>&1 | tee "$log_dir/$name.log"; then
    passed=$((passed + 1)); result=ok
    grep -q "^$name: cached (key " "$log_dir/$name.log" && result=cached
  else
    failed+=("$name"); result=FAILED
  fi
  summary+=("$(printf '  %-20s %-7s %5ds' "$name" "$result" $((SECONDS - start)))")
}

# In the template check's copy (TEMPLATE_COPY_RUN=1) the steps whose inputs are frozen are not repeated.
copy=${TEMPLATE_COPY_RUN:-0}
# A step whose inputs did not change since it passed is not run again (`componentctl cached`: the step's
# key hashes the git trees of its inputs, uncommitted changes included); COMPONENTCTL_CACHE=off runs all.
# Components and apps are keyed one by one by `componentctl test` itself.
swift build --package-path Tools/componentctl --product componentctl 2>&1 | tail -n 1
cached() {  # cached NAME INPUT-OPTIONS... -- COMMAND...: `step NAME` of the command, skipped when its key passed
  local name=$1
  shift
  step "$name" "$tool" cached "$name" "$@"
}
# The tool's tests that copy the live workspace (they check what holds for any workspace) depend on all of it;
# the rest only on the tool's package and what it depends on.
live_tests='newInAnAppThenRemoveLeavesTheWorkspaceAsItWas|newScaffoldsAComponentThatPassesCheckLayersAndTestsAlone|createFromTheLiveWorkspaceGivesOneThatChecksAndSyncs'
cached lint --input . -- scripts/lint.sh
[ "$copy" = 1 ] || cached componentctl --package Tools/componentctl -- swift test --package-path Tools/componentctl --skip "$live_tests"
[ "$copy" = 1 ] || cached componentctl-builds --package Tools/componentctl -- env COMPONENTCTL_BUILD_TESTS=1 \
  swift test --package-path Tools/componentctl --filter 'PinnedAppTests|RealBuildTests|APIDiffTests|CIWorkflowTests|KillTrialTests|SharedScratchTests' --skip "$live_tests"
[ "$copy" = 1 ] || cached componentctl-live --input . -- env COMPONENTCTL_BUILD_TESTS=1 swift test --package-path Tools/componentctl --filter "$live_tests"
step check-layers "$tool" check-layers
step pins-in-sync "$tool" sync --check
step workflow scripts/lint-workflows.sh
[ "$copy" = 1 ] || cached fault-injection --package Tools/componentctl -- Tools/componentctl/Scripts/fault-injection.sh
# `affected` and keys against an oracle written apart from the tool, on a random history (seeded: the same each run).
[ "$copy" = 1 ] || cached affected-oracle --package Tools/componentctl -- python3 Tools/componentctl/Scripts/affected-oracle.py "$tool"
# The guide's examples go into a package of their own on the router and screens: what they depend on.
cached doc-examples --input docs/routes.md --input scripts/check-doc-examples.sh --package Packages/Foundation/Router --package Packages/Foundation/ScreenKit -- scripts/check-doc-examples.sh
# TEST_COMPONENTS names the components to test alone (default: all of them; those that passed with the same key are cached).
if [ -n "${TEST_COMPONENTS:-}" ]; then
  # shellcheck disable=SC2086 # a list of names
  step components "$tool" test --standalone $TEST_COMPONENTS --verbose
else
  step components "$tool" test --standalone --all --verbose
fi
# The root tests drive each app of components.yaml in turn (a test skips itself in an app without its components); an app
# an Xcode project assembles (its PRODUCT is the .xcodeproj) is no SwiftPM product to test.
# TEST_APPS names the apps to test (default: every app of components.yaml).
apps=$("$tool" list --apps | awk -v only=" ${TEST_APPS:-} " 'NR > 1 && NF > 1 && $2 !~ /\.xcodeproj$/ && (only == "  " || index(only, " " $1 " ")) { printf "--app %s ", $1 }')
# shellcheck disable=SC2086 # a list of options
step app "$tool" test ${apps:---integrated} --verbose
if [ "${ROUTER_BENCH:-}" = 1 ]; then
  step router-bench env ROUTER_BENCH_ENFORCE=1 Benchmarks/router-bench/run.sh
elif [ "$copy" != 1 ]; then
  cached router-allocations --package Benchmarks/router-bench -- Benchmarks/router-bench/run.sh --allocations
fi
# The sample comes out with componentctl alone: every top-layer component removed in a copy, which still checks and builds.
[ "$copy" = 1 ] || cached remove-samples --input . -- scripts/check-remove-samples.sh
# A new workspace made with `componentctl create`, two features added, `make app` and `make test` there.
if [ "${NEW_WORKSPACE_CHECK:-1}" != 0 ] && [ "$copy" != 1 ]; then
  cached new-workspace --input . -- scripts/check-new-workspace.sh
fi
if [ "${TEMPLATE_COPY_CHECK:-1}" != 0 ]; then
  cached template-copy --input . -- scripts/check-template-copy.sh
fi

echo
echo "Steps (logs in $log_dir):"
printf '%s\n' "${summary[@]}"
if [ ${#failed[@]} -gt 0 ]; then
  echo "Failed steps (logs in $log_dir and .build/componentctl-logs):"
  printf '  %s\n' "${failed[@]}"
fi
echo "test steps: $passed passed, ${#failed[@]} failed"
[ ${#failed[@]} -eq 0 ]
