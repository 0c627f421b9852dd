#!/usr/bin/env bash
# The template's promise, checked: a copy of this workspace in which a team added a component with
# `componentctl new` and removed one of the components it came with passes `make test` unchanged.
# Copies the working tree (what git tracks or would track) to .build/template-copy, makes it a repository,
# adds `Wishlist`, plugs a scaffolded plugin in, switches it off and takes it out again (building and
# opening the App each time, see below), removes the last business implementation that `componentctl remove`
# accepts (one nothing else depends on), commits, and runs `make test` there (without this step, so it does
# not recur). The copy lives in .build/template-copy and keeps its build folders between runs
# (scripts/copy-workspace.sh), so after a small change the copy's builds are incremental.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/copy-workspace.sh
. scripts/copy-workspace.sh
copy_workspace "$PWD/.build/template-copy"

swift build --package-path Tools/componentctl --product componentctl 2>&1 | tail -1
tool=Tools/componentctl/.build/debug/componentctl
# The first app of components.yaml gets the new component and plugin (none: they are only registered).
app=$("$tool" list --apps | awk 'NR == 2 && NF > 1 { print $1 }')
product=$("$tool" list --apps | awk 'NR == 2 && NF > 1 { print $2 }')
"$tool" new Wishlist --layer business ${app:+--app "$app"}
git add -A && git commit -qm "wishlist added"

# A plugin plugged in and out for real: the first extension point whose template names a page that shows
# its plugins (PluginTemplates/<point>/page-url) gets a scaffolded plugin; the App shows its section;
# (both in the first app) `remove` brings the workspace back byte for byte and the App no longer shows it. The plugin then stays
# for the `make test` below.
template=$(find Packages -mindepth 4 -maxdepth 4 -type d -path '*/PluginTemplates/*' | sort | while read -r dir; do [ -f "$dir/page-url" ] && echo "$dir"; done | head -n 1)
if [ -n "$template" ] && [ -n "$app" ]; then
  interface=$(basename "$(dirname "$(dirname "$template")")" | sed -E 's/([a-z0-9])([A-Z])/\1-\2/g; s/([A-Z]+)([A-Z][a-z])/\1-\2/g' | tr '[:upper:]' '[:lower:]')
  point="$interface/$(basename "$template")"
  url=$(cat "$template/page-url")
  "$tool" new Spotlight --plugin "$point" --app "$app"
  git add -A && git commit -qm "spotlight plugin added"
  swift build --product "$product" 2>&1 | tail -n 1
  XDG_DATA_HOME=$(mktemp -d) .build/debug/"$product" open "$url" | grep -q '^## Spotlight$' || { echo "template-copy: the scaffolded plugin's section is not on $url"; exit 1; }
  # Switched off in the declaration: sync regenerates the App's wiring, and only the shell is rebuilt.
  sed -i 's/^\( *\)- plugin: spotlight$/&\n\1  enabled: false/' components.yaml
  "$tool" sync
  swift build --product "$product" 2>&1 | tail -n 1
  if XDG_DATA_HOME=$(mktemp -d) .build/debug/"$product" open "$url" | grep -q '^## Spotlight$'; then echo "template-copy: the disabled plugin still shows"; exit 1; fi
  git checkout -q -- components.yaml App Package.swift
  "$tool" remove spotlight
  git update-index -q --refresh || true  # files rewritten with the same bytes are only stat-dirty
  git diff --quiet HEAD~1 || { echo "template-copy: new then remove of a plugin changed the workspace:"; git diff --stat HEAD~1; exit 1; }
  [ -z "$(git ls-files --others --exclude-standard)" ] || { echo "template-copy: remove left files behind:"; git ls-files --others --exclude-standard; exit 1; }
  swift build --product "$product" 2>&1 | tail -n 1
  if XDG_DATA_HOME=$(mktemp -d) .build/debug/"$product" open "$url" | grep -q '^## Spotlight$'; then echo "template-copy: the removed plugin still shows"; exit 1; fi
  git reset -q --hard HEAD
  echo "template-copy: plugin $point: scaffolded, shown, removed byte for byte, gone"
fi
removed=""
# The top layer's implementations, last first: the apps' wiring is generated, so `remove` alone takes one out.
candidates=$("$tool" list | awk 'NR == 2 { top = $2 } NR > 1 && $2 == top && $3 == "implementation" && $1 != "wishlist" { print $1 }' | tac)
for name in $candidates; do
  if "$tool" remove "$name" 2>/dev/null; then removed=$name; break; fi
done
if [ -z "$removed" ]; then
  echo "template-copy: no business component could be removed; only the added one is checked"
fi
git add -A && git commit -qm "a team's first change: ${removed:-nothing} removed" --allow-empty
# Only what the change can affect is tested again, by the components' keys: a component whose folder and
# dependencies are byte for byte the original's has the original's key (keys hold no path), so its result
# is taken from the results cache the original run filled; the added ones run, and so does everything that
# looks at the workspace as a whole. The tool's own tests, its kill trials and the router's allocation
# counts run on frozen inputs, so the copy does not repeat them; the integrated tests run for the app the
# change went into (the new-workspace check runs them in a workspace of its own).
echo "template-copy: running make test in the copy (wishlist added${removed:+, $removed removed})"
TEMPLATE_COPY_CHECK=0 TEMPLATE_COPY_RUN=1 TEST_APPS=$app make test
