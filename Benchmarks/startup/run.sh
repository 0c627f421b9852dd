#!/usr/bin/env bash
# An app's cold start to its first screen (release build of the first app of components.yaml, opened at
# `workspace.start`), measured in one run:
#   - the whole process, `<app> open <start>`, with hyperfine (what a user waits for; goal: at most
#     100 ms), against `<app> help` (the process that boots no module) as the anchor;
#   - the App's own startup profile (--profile-startup): each module's register and launch time and the
#     time to the first screen after the App's code started, from the median run of 15.
# Timings report; they follow the machine's load, so nothing fails on them.
set -euo pipefail
cd "$(dirname "$0")/../.."
command -v hyperfine >/dev/null || { echo "Installing hyperfine..."; ${SUDO:-$([ "$(id -u)" = 0 ] || echo sudo)} apt-get install -y -qq hyperfine >/dev/null; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

tool=Tools/componentctl/.build/debug/componentctl
[ -x "$tool" ] || swift build --package-path Tools/componentctl --product componentctl
# The first app of components.yaml, opened at the workspace's start.
product=$("$tool" list --apps | awk 'NR == 2 && NF > 1 { print $2 }')
[ -n "$product" ] || { echo "startup-bench: components.yaml declares no apps"; exit 1; }
start=$(awk '/^workspace:/ { inside = 1; next } /^[^ #]/ { inside = 0 } inside && $1 == "start:" { print $2 }' components.yaml)
[ -n "$start" ] || { echo "startup-bench: components.yaml names no workspace.start, the screen whose start it times"; exit 1; }

echo "== $product in release"
swift build -c release --product "$product" --scratch-path .build-bench-host 2>&1 | tail -1
app=$PWD/.build-bench-host/release/$product
# A data folder of its own, not the user's: its variable carries the workspace's settings prefix.
data_dir=$("$tool" list --apps --format json | python3 -c 'import json, sys; print(json.load(sys.stdin)[0]["settingsPrefix"] + "_DATA_DIR")')
export "$data_dir=$work/data"
"$app" open "$start" >/dev/null # the database exists from here on, as on a user's machine

echo "== Cold start to the first screen"
hyperfine -N --warmup 3 --runs 40 --export-json "$work/start.json" \
  -n "open the start" "$app open $start" \
  -n "help (no module booted)" "$app help" >/dev/null

for run in $(seq 15); do
  "$app" --profile-startup open "$start" 2>"$work/profile-$run.txt" >/dev/null
done
python3 - "$work" "$product open $start" <<'PY'
import glob, json, re, statistics, sys
work, opened = sys.argv[1], sys.argv[2]
results = {r["command"]: r for r in json.load(open(work + "/start.json"))["results"]}
start, anchor = results["open the start"], results["help (no module booted)"]
mean, sd = start["mean"] * 1000, start["stddev"] * 1000
print("Cold start of the release app to its first screen (the whole process, mean of 40 runs):")
print("  %s  %6.1f ms ± %.1f  (goal: at most 100 ms, %s)" % (opened, mean, sd, "met" if mean <= 100 else "missed"))
print("  help (anchor)  %6.1f ms: booting the modules and rendering the screen add %.1f ms (%.2fx)"
      % (anchor["mean"] * 1000, mean - anchor["mean"] * 1000, mean / (anchor["mean"] * 1000)))
profiles = []
for path in glob.glob(work + "/profile-*.txt"):
    text = open(path).read()
    first = re.search(r"first screen after ([0-9.]+) ms", text)
    if first:
        profiles.append((float(first.group(1)), text))
profiles.sort()
median = profiles[len(profiles) // 2]
print("Time to the first screen after the App's code started (median of %d): %.2f ms; that run's profile:" % (len(profiles), median[0]))
print("\n".join("  " + line for line in median[1].strip().split("\n")))
PY
