#!/usr/bin/env bash
# The template's other promise, checked: its sample features come out with componentctl alone. In a copy
# of this workspace (.build/remove-samples, see scripts/copy-workspace.sh), one `componentctl remove` takes
# out every component of the top layer (features, plugins, interfaces); then check-layers and `sync --check`
# pass, every app builds, and the first one starts with the shell alone. Nothing is edited by hand.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/copy-workspace.sh
. scripts/copy-workspace.sh
# The workspace's own componentctl, built by make test before this step.
tool=$PWD/Tools/componentctl/.build/debug/componentctl
[ -x "$tool" ] || swift build --package-path Tools/componentctl --product componentctl 2>&1 | tail -1
copy_workspace "$PWD/.build/remove-samples"
# Every component of the top layer, the first of components.yaml's `layers:`.
# shellcheck disable=SC2207 # names have no spaces
top=($("$tool" list --format json | python3 -c '
import json, re, sys
text = open("components.yaml").read()
flow = re.search(r"^layers:[ \t]*\[([^\]]*)\]", text, re.M)
block = re.search(r"^layers:[ \t]*\n[ \t]*-[ \t]*([^\s#]+)", text, re.M)
top = flow.group(1).split(",")[0].strip() if flow else block.group(1) if block else None
print(" ".join(c["name"] for c in json.load(sys.stdin) if c["layer"] == top))'))
[ "${#top[@]}" -gt 0 ] || { echo "remove-samples: the top layer has no component; nothing to remove"; exit 0; }
echo "remove-samples: removing ${top[*]}"
"$tool" remove "${top[@]}"
git add -A && git commit -qm "every component of the top layer removed"
"$tool" check-layers
"$tool" sync --check
swift build 2>&1 | tail -n 1
product=$("$tool" list --apps | awk 'NR == 2 && NF > 1 { print $2 }')
if [ -n "$product" ]; then
  data=$(mktemp -d)
  shown=$(printf 'routes\nquit\n' | XDG_DATA_HOME=$data ".build/debug/$product")
  rm -rf "$data"
  grep -q "^== App '" <<<"$shown" || { echo "remove-samples: $product did not show its first screen:"; echo "$shown"; exit 1; }
fi
echo "remove-samples: ${#top[@]} components removed; check-layers, sync --check and the build pass${product:+; $product starts}"
