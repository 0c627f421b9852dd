#!/usr/bin/env bash
# Sourced by the checks that work on a copy of this workspace.

# `keep_builds FOLDER FRESH`: moves the build folders of FOLDER (and the Package.resolved beside each) into
# FRESH where FRESH has their package too, times kept, then deletes FOLDER; so after a small change the
# next run's builds are incremental. FOLDER may not exist yet.
keep_builds() {
  local work=$1 fresh=$2
  [ -d "$work" ] || return 0
  (cd "$work" && find . -path ./.git -prune -o \( -name .build -type d -prune -o -name Package.resolved \) -print) |
    while IFS= read -r kept; do
      [ -e "$fresh/$(dirname "$kept")/Package.swift" ] || [ "$(dirname "$kept")" = . ] || continue
      mkdir -p "$fresh/$(dirname "$kept")" && mv "$work/$kept" "$fresh/$kept"
    done
  rm -rf "$work"
}

# `copy_workspace FOLDER`: replaces FOLDER (under .build/, where `make clean` finds it) with the working
# tree (what git tracks or would track), makes it a repository with one commit, and enters it.
copy_workspace() {
  local work=$1 fresh=$1.next
  rm -rf "$fresh" && mkdir -p "$fresh"
  git ls-files -z --cached --others --exclude-standard | while IFS= read -r -d '' file; do
    [ -e "$file" ] || [ -L "$file" ] && printf '%s\0' "$file"
  done | tar --null -T - -cf - | tar -xf - -C "$fresh"
  keep_builds "$work" "$fresh"
  mv "$fresh" "$work"
  cd "$work" || return 1
  git init -q && git config user.name Template && git config user.email template@example.com
  git add -A && git commit -qm "the template as copied"
}
