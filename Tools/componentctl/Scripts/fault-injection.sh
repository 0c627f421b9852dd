#!/usr/bin/env bash
# Kills componentctl during pin, unpin, release, sync, remove and new, at every transaction step, between a
# temporary file's creation and its rename, inside libgit2's write of the release tag (strace kills
# the process at the lock file's creation, its link to the ref, or its removal), and at random
# moments. Checks that the workspace (components.yaml, components.lock, Package.swift, the pinned
# checkouts, the branch, the index, the tags) is always exactly as before or exactly as after, never
# in between, and that no stray file is left (temporaries, backups, git lock files).
# The next command after a kill rolls an interrupted change back (here: `componentctl list`); when
# it names a stale git lock file to remove, the script does what it says, as a user would.
set -euo pipefail
trap 'echo "fault-injection: stopped by a failing command at line $LINENO (status $?)" >&2' ERR
trials=${TRIALS:-120}
here=$(cd "$(dirname "$0")/.." && pwd)
# The tool's own frozen fixture workspace: the trials depend on the tool alone, whatever a team's components are.
workspace="$here/Tests/Fixtures/Library"
swift build --package-path "$here" --product componentctl 2>&1 | tail -1
tool="$here/.build/debug/componentctl"
work=${FAULT_WORK:-$(mktemp -d)}
[ -n "${FAULT_WORK:-}" ] || trap 'rm -rf "$work"' EXIT

# A repository with two releases of reader, a live change after them, and a pinned variant.
base="$work/base"
mkdir -p "$base"
cp -R "$workspace/." "$base/"
cd "$base"
git init -q && git config user.name Fault && git config user.email fault@example.com && git add -A && git commit -qm base
"$tool" release reader 1.0.1 > /dev/null
"$tool" release reader 1.1.0 > /dev/null
echo "// live" >> Packages/Business/Reader/Sources/Reader/ReaderModule.swift && git commit -qam live
pinned="$work/pinned"
cp -a "$base" "$pinned" && "$tool" --root "$pinned" pin reader 1.1.0 > /dev/null
unsynced="$work/unsynced"
cp -a "$pinned" "$unsynced" && rm -rf "$unsynced/Packages/.pin-reader-1.1.0"
# A committed component nothing uses, in the lowest layer of the last component listed, for `remove`.
removable="$work/removable"
cp -a "$base" "$removable"
layer=$("$tool" --root "$removable" list | awk 'END { print $2 }')
"$tool" --root "$removable" new FaultProbe --layer "$layer" > /dev/null
(cd "$removable" && git add -A && git commit -qm probe)

# A hash of everything a command may change. Commits by their tree, parents and subject (a release made
# in two copies gets two ids, from two times); every path outside .git but the workspace lock, so a
# stray temporary or backup shows; git's lock files.
state() {
  (cd "$1"
   sha256sum components.yaml Package.swift 2>/dev/null
   [ -f components.lock ] && sha256sum components.lock
   find Packages -path '*/.pin-*' -type f -print0 | sort -z | xargs -0 -r sha256sum
   find Packages -path '*/.pin-*' -type l -printf '%p -> %l\n' | sort
   find . -path ./.git -prune -o -print | grep -v '^\./\.componentctl/lock$' | sort
   find .git -name '*.lock' | sort
   git log -1 --format='%T %s' HEAD; git log -1 --format='%T' HEAD~1
   git ls-files -s | sha256sum
   for tag in $(git tag -l | sort); do echo "$tag $(git rev-parse "$tag^{tree}")"; done
  ) | sha256sum | cut -d' ' -f1
}
recover() {  # the next command rolls back; a stale git lock it names is removed as it says, then again
  local advice
  advice=$("$tool" --root "$1" list 2>&1 > /dev/null || true)
  if grep -q "rm '" <<< "$advice"; then
    grep -o "rm '[^']*'" <<< "$advice" | sed "s/^rm '//; s/'\$//" | sort -u | while read -r lock; do rm -f "$lock"; done
    "$tool" --root "$1" list > /dev/null 2>&1 || true
  fi
}

operations=("base|pin reader 1.1.0" "pinned|pin reader 1.0.1" "pinned|unpin reader" "base|release reader 1.2.0" "unsynced|sync" "removable|remove fault-probe"
  "base|new FaultNew --layer $layer")
points=(prepared journal advance tag remove add temp write index committed random)
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
  if (( trial % 3 == 1 )); then
    point=${points[$((RANDOM % ${#points[@]}))]}
    # shellcheck disable=SC2086
    (COMPONENTCTL_FAULT=$point "$tool" --root "$subject" $command || true) > /dev/null 2>&1
    how="at $point"
  elif (( trial % 3 == 2 )) && [[ $command == release* ]] && command -v strace > /dev/null; then
    # Inside libgit2's tag write, on its lock file: its creation (openat), its link to the ref (link), its removal (unlink).
    calls=(openat link unlink)
    call=${calls[$((RANDOM % 3))]}
    lock="$subject/.git/refs/tags/reader@1.2.0.lock"
    # shellcheck disable=SC2086
    (strace -f -qq -o /dev/null -P "$lock" -e trace=$call -e inject=$call:signal=KILL:when=1 \
      "$tool" --root "$subject" $command || true) > /dev/null 2>&1
    how="inside the tag write (at $call of its lock file)"
  else
    delay=$(awk -v r=$RANDOM 'BEGIN { printf "%.3f", 0.005 + (r % 120) / 1000 }')
    # shellcheck disable=SC2086
    (timeout -s KILL "$delay" "$tool" --root "$subject" $command || true) > /dev/null 2>&1
    how="after ${delay}s"
  fi
  recover "$subject"
  now=$(state "$subject")
  (( trial % 20 == 0 )) && echo "fault trials: $trial of $trials done"
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
