#!/usr/bin/env bash
# Kills componentctl during pin, unpin, release and sync, at every transaction step and at random
# moments, and checks that the workspace (components.yaml, components.lock, Package.swift, the
# pinned checkouts, the tags) is always exactly as before or exactly as after, never in between.
# The next command after a kill rolls an interrupted change back (here: `componentctl list`).
set -euo pipefail
trap 'echo "fault-injection: stopped by a failing command at line $LINENO (status $?)" >&2' ERR
trials=${TRIALS:-120}
here=$(cd "$(dirname "$0")/.." && pwd)
workspace=$(cd "$here/../.." && pwd)
swift build --package-path "$here" --product componentctl 2>&1 | tail -1
tool="$here/.build/debug/componentctl"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# A repository with two releases of user, a live change after them, and a pinned variant.
base="$work/base"
mkdir -p "$base"
(cd "$workspace" && git ls-files -z | xargs -0 -I{} cp --parents {} "$base/")
cd "$base"
git init -q && git config user.name Fault && git config user.email fault@example.com && git add -A && git commit -qm base
"$tool" release user 1.0.1 > /dev/null && git commit -qam r1
"$tool" release user 1.1.0 > /dev/null && git commit -qam r2
echo "// live" >> Packages/Business/User/Sources/User/UserModule.swift && git commit -qam live
pinned="$work/pinned"
cp -a "$base" "$pinned" && "$tool" --root "$pinned" pin user 1.1.0 > /dev/null
unsynced="$work/unsynced"
cp -a "$pinned" "$unsynced" && rm -rf "$unsynced/Packages/.pin-user-1.1.0"

state() {  # a hash of everything a command may change; tags by the commit they name
  (cd "$1"
   sha256sum components.yaml Package.swift 2>/dev/null
   [ -f components.lock ] && sha256sum components.lock
   find Packages -maxdepth 1 -name '.pin-*' | sort
   find Packages -path '*/.pin-*' -type f -print0 | sort -z | xargs -0 -r sha256sum
   find Packages -path '*/.pin-*' -type l -printf '%p -> %l\n' | sort
   git for-each-ref refs/tags --format='%(refname) %(*objectname)' || echo "tags unreadable"
  ) | sha256sum | cut -d' ' -f1
}

operations=("base|pin user 1.1.0" "pinned|pin user 1.0.1" "pinned|unpin user" "base|release user 1.2.0" "unsynced|sync")
points=(prepared journal tag remove add write committed random)
passed=0; failed=0; before_count=0; after_count=0
for trial in $(seq "$trials"); do
  entry=${operations[$((RANDOM % ${#operations[@]}))]}
  source=${entry%%|*}; command=${entry#*|}
  expected="$work/expected"; subject="$work/subject"
  rm -rf "$expected" "$subject"
  cp -a "$work/$source" "$expected"; cp -a "$work/$source" "$subject"
  # shellcheck disable=SC2086
  "$tool" --root "$expected" $command > /dev/null
  after=$(state "$expected"); before=$(state "$subject")
  if (( trial % 2 )); then
    point=${points[$((RANDOM % ${#points[@]}))]}
    # shellcheck disable=SC2086
    (COMPONENTCTL_FAULT=$point "$tool" --root "$subject" $command || true) > /dev/null 2>&1
    how="at $point"
  else
    delay=$(awk -v r=$RANDOM 'BEGIN { printf "%.3f", 0.005 + (r % 120) / 1000 }')
    # shellcheck disable=SC2086
    (timeout -s KILL "$delay" "$tool" --root "$subject" $command || true) > /dev/null 2>&1
    how="after ${delay}s"
  fi
  "$tool" --root "$subject" list > /dev/null 2>&1 || true   # recovers an interrupted change
  now=$(state "$subject")
  if [ "$now" = "$before" ]; then
    passed=$((passed + 1)); before_count=$((before_count + 1))
  elif [ "$now" = "$after" ]; then
    passed=$((passed + 1)); after_count=$((after_count + 1))
  else
    failed=$((failed + 1)); echo "trial $trial: '$command' killed $how left the workspace in between"
  fi
done
echo "outcomes: $before_count rolled back to before, $after_count completed"
echo "fault trials: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
