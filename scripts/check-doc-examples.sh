#!/usr/bin/env bash
# Compiles the blocks of docs/routes.md ("How to add a route") into a scratch copy of the workspace, as a
# reader would type them: the route into ProductInterface, the registration into ProductModule.register(in:),
# the link into the product list's screen; then builds the Product component alone.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
git ls-files -z | xargs -0 -I{} cp --parents {} "$work/"
# The N-th ```swift block of the guide, its indentation removed.
block() {
  awk -v want="$1" '
    /^ *```swift/ { n++; if (n == want) { grab = 1; match($0, /^ */); indent = RLENGTH; next } }
    grab && /^ *```/ { exit }
    grab { print substr($0, indent + 1) }
  ' docs/routes.md
}
interface="$work/Packages/Interfaces/ProductInterface/Sources/ProductInterface/ProductInterface.swift"
module="$work/Packages/Business/Product/Sources/Product/ProductModule.swift"
for n in 1 2 3; do [ -n "$(block $n)" ] || { echo "docs/routes.md: its swift block $n is missing" >&2; exit 1; }; done
block 1 >> "$interface"
registration=$(block 2)
link=$(block 3)
anchor='        try context.router.register(ProductRoute.Search.self'
grep -q "^$anchor" "$module" || { echo "check-doc-examples: ProductModule.register(in:) has no Search registration to add after" >&2; exit 1; }
awk -v anchor="$anchor" -v text="$registration" -v link="$link" '
  { print }
  index($0, anchor) == 1 {
    n = split(text, lines, "\n"); for (i = 1; i <= n; i++) print "        " lines[i]
    print "        _ = { () throws -> Screen in var screen = Screen(title: \"x\"); " link "; return screen }"
  }' "$module" > "$module.new" && mv "$module.new" "$module"
swift build --package-path "$work/Packages/Business/Product" 2>&1 | tail -3
echo "doc examples: 3 blocks of docs/routes.md compiled"
