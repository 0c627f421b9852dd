#!/usr/bin/env bash
# Sourced by the checks that work on a copy of this workspace. `copy_workspace FOLDER` replaces FOLDER
# (under .build/, where `make clean` finds it) with the working tree (what git tracks or would track),
# makes it a repository with one commit, and enters it. Build folders of the previous copy are kept where
# their package still exists, times kept, so after a small change the copy's builds are incremental.
copy_workspace() {
  local work=$1 fresh=$1.next
  rm -rf "$fresh" && mkdir -p "$fresh"
  if [ -d "$work" ]; then
    # A build folder (and the Package.resolved beside it) is kept where the workspace still has its package.
    (cd "$work" && find . -path ./.git -prune -o \( -name .build -type d -prune -o -name Package.resolved \) -print) |
      while IFS= read -r kept; do
        [ -d "$(dirname "$kept")" ] || continue
        mkdir -p "$fresh/$(dirname "$kept")" && mv "$work/$kept" "$fresh/$kept"
      done
    rm -rf "$work"
  fi
  mv "$fresh" "$work"
  git ls-files -z --cached --others --exclude-standard | while IFS= read -r -d '' file; do
    [ -e "$file" ] || [ -L "$file" ] && printf '%s\0' "$file"
  done | tar --null -T - -cf - | tar -xf - -C "$work"
  cd "$work" || return 1
  git init -q && git config user.name Template && git config user.email template@example.com
  git add -A && git commit -qm "the template as copied"
}
