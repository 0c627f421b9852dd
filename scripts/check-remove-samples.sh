#!/usr/bin/env bash
# The template's other promise, checked: its sample features come out with componentctl alone. In a copy
# of this workspace (.build/remove-samples, see scripts/copy-workspace.sh), one `componentctl remove` takes
# out every component of the top layer (features, plugins, interfaces); then check-layers and `sync --check`
# pass, every app builds, and the first one starts with the shell alone. Nothing is edited by hand.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/copy-workspace.sh
. scripts/copy-workspace.sh
copy_workspace "$PWD/.build/remove-samples"

swift build --package-path Tools/componentctl --product componentctl 2>&1 | tail -1
tool=Tools/componentctl/.build/debug/componentctl
# The top layer is the one the apps' components are in.
# shellcheck disable=SC2207 # names have no spaces
top=($("$tool" list --format json | python3 -c '
import json, sys
components = json.load(sys.stdin)
layers = {c["layer"] for c in components if c["apps"]}
print(" ".join(c["name"] for c in components if c["layer"] in layers))'))
[ "${#top[@]}" -gt 0 ] || { echo "remove-samples: the top layer has no component; nothing to remove"; exit 0; }
echo "remove-samples: removing ${top[*]}"
"$tool" remove "${top[@]}"
git add -A && git commit -qm "every component of the top layer removed"
"$tool" check-layers
"$tool" sync --check
swift build 2>&1 | tail -n 1
product=$("$tool" list --apps | awk 'NR == 2 && NF > 1 { print $2 }')
if [ -n "$product" ]; then
  shown=$(printf 'quit\n' | SHOP_DATA_DIR=$(mktemp -d) ".build/debug/$product")
  grep -q "^== App '" <<<"$shown" || { echo "remove-samples: $product did not show its first screen:"; echo "$shown"; exit 1; }
fi
echo "remove-samples: ${#top[@]} components removed; check-layers, sync --check and the build pass${product:+; $product starts}"
