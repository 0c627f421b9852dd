#!/usr/bin/env bash
# The template's first promise, checked: `componentctl create` makes a team's own workspace, `Notes` with
# the scheme `notes`, in .build/new-workspace/Notes. There two features are added with `componentctl new`,
# `make app` runs with its input closed and opens the app, and `make test` passes. Nothing is edited by
# hand, and no file of the new workspace names the template's workspace or scheme (its sample's words).
# Build folders are kept between runs (scripts/copy-workspace.sh), so after a small change builds are
# incremental; the steps whose inputs are the template's own (the tool's tests, its kill trials) are
# not repeated, and neither are this check and the template-copy check.
set -euo pipefail
cd "$(dirname "$0")/.."
template=$PWD
# shellcheck source=scripts/copy-workspace.sh
. scripts/copy-workspace.sh
tool=$PWD/Tools/componentctl/.build/debug/componentctl
[ -x "$tool" ] || swift build --package-path Tools/componentctl --product componentctl 2>&1 | tail -1
work=$PWD/.build/new-workspace/Notes
fresh=$PWD/.build/new-workspace/Notes.next
rm -rf "$fresh" && mkdir -p "$(dirname "$work")"
start=$SECONDS
"$tool" create "$fresh" --name Notes --scheme notes
keep_builds "$work" "$fresh"
mv "$fresh" "$work"
cd "$work"
git config user.name Notes && git config user.email notes@example.com
git add -A && git commit -qm "Notes, as created"

# The template's own words: its name and scheme, in any case (grep -i), outside git's and the builds' folders.
template_name=$(sed -n 's/^  name: *\([A-Za-z0-9]*\).*/\1/p' "$template/components.yaml" | head -1)
template_scheme=$(sed -n 's/^  scheme: *\([a-z0-9+.-]*\).*/\1/p' "$template/components.yaml" | head -1)
for word in $template_name $template_scheme; do
  if found=$(grep -ril --exclude-dir=.git --exclude-dir='.build*' -- "$word" .); then
    echo "new-workspace: these files of the new workspace name the template's '$word':"; echo "$found"; exit 1
  fi
done

"$tool" new Notebook --layer business --app notes
"$tool" new Search --layer business --app notes
git add -A && git commit -qm "two features"
shown=$(make app </dev/null 2>&1) || { echo "$shown"; echo "new-workspace: make app failed"; exit 1; }
grep -q '^== Home ==' <<<"$shown" || { echo "$shown"; echo "new-workspace: make app did not open the start screen"; exit 1; }
echo "new-workspace: created, two features added, make app opened Notes ($((SECONDS - start)) s so far); running make test there"
NEW_WORKSPACE_CHECK=0 TEMPLATE_COPY_CHECK=0 TEMPLATE_COPY_RUN=1 make test
echo "new-workspace: Notes passed make test; $((SECONDS - start)) s in all"
