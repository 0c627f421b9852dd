#!/usr/bin/env bash
# `make clean`: removes the build folders of the workspace, the tool and every package in it. It removes
# only what SwiftPM or componentctl made: a folder named .build holding SwiftPM's build database or
# workspace state, componentctl's logs, or the template check's copy. Any other .build folder is named and kept.
set -euo pipefail
cd "$(dirname "$0")/.."
made_by_the_build() {
  local folder=$1 marker
  for marker in build.db workspace-state.json debug.yaml release.yaml componentctl-logs test-logs template-copy; do
    [ -e "$folder/$marker" ] && return 0
  done
  return 1
}
find . -path ./.git -prune -o -type d -name .build -prune -print0 | while IFS= read -r -d '' folder; do
  if made_by_the_build "$folder"; then
    rm -rf -- "$folder"
    echo "removed $folder"
  else
    echo "kept $folder: it holds nothing SwiftPM or componentctl made" >&2
  fi
done
