#!/usr/bin/env bash
# The template's promise, checked: a copy of this workspace in which a team added a component with
# `componentctl new` and removed one of the components it came with passes `make test` unchanged.
# Copies the working tree (what git tracks or would track) to a scratch folder, makes it a repository,
# adds `Wishlist`, removes the last business component that `componentctl remove` accepts once the App's
# hand-written wiring of it is taken out (as a team would do by hand), commits, and runs `make test` there
# (without this step, so it does not recur). KEEP=1 keeps the copy.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
[ "${KEEP:-}" = 1 ] && echo "template-copy: the copy stays in $work" || trap 'rm -rf "$work"' EXIT
git ls-files -z --cached --others --exclude-standard | while IFS= read -r -d '' file; do
  [ -e "$file" ] || [ -L "$file" ] && printf '%s\0' "$file"
done | tar --null -T - -cf - | tar -xf - -C "$work"
cd "$work"
git init -q && git config user.name Template && git config user.email template@example.com
git add -A && git commit -qm "the template as copied"

swift build --package-path Tools/componentctl --product componentctl 2>&1 | tail -1
tool=Tools/componentctl/.build/debug/componentctl
"$tool" new Wishlist --layer business
git add -A && git commit -qm "wishlist added"
bootstrap=App/Shell/Bootstrap.swift
removed=""
# The top layer's implementations, last first, with their modules (columns of `componentctl list`).
candidates=$("$tool" list | awk 'NR == 2 { top = $2 } NR > 1 && $2 == top && $3 == "implementation" && $1 != "wishlist" { print $1 ":" $NF }' | tac)
for candidate in $candidates; do
  name=${candidate%%:*}
  for module in $(echo "${candidate#*:}" | tr , " "); do  # what a team deletes by hand: the App's import of the module and where it creates it
    [ -f "$bootstrap" ] && sed -i "/^import $module\$/d; /^ *${module}Module(.*),\$/d" "$bootstrap"
  done
  if "$tool" remove "$name" 2>/dev/null; then removed=$name; break; fi
  git checkout -q -- "$bootstrap" 2>/dev/null || true
done
if [ -z "$removed" ]; then
  echo "template-copy: no business component could be removed; only the added one is checked"
fi
git add -A && git commit -qm "a team's first change: ${removed:-nothing} removed" --allow-empty
echo "template-copy: running make test in the copy (wishlist added${removed:+, $removed removed})"
TEMPLATE_COPY_CHECK=0 make test
