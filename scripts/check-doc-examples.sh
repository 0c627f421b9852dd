#!/usr/bin/env bash
# Compiles the blocks of docs/routes.md ("How to add a route") as a reader would type them into a feature of
# their own. The feature is a fixture this script writes into a temporary folder: a package with an interface
# target (ItemInterface, holding ItemRoute, on Router) and a feature target (Item, holding ItemModule, on
# ItemInterface, Router and ScreenKit). It depends by path on the workspace's Packages/Foundation/Router and
# Packages/Foundation/ScreenKit, and on nothing else.
# The route goes into ItemInterface, the registration into ItemModule.register(in:), the link into a screen
# built there; then the fixture is built.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The N-th ```swift block of the guide, its indentation removed.
block() {
  awk -v want="$1" '
    /^ *```swift/ { n++; if (n == want) { grab = 1; match($0, /^ */); indent = RLENGTH; next } }
    grab && /^ *```/ { exit }
    grab { print substr($0, indent + 1) }
  ' docs/routes.md
}
for n in 1 2 3; do [ -n "$(block $n)" ] || { echo "docs/routes.md: its swift block $n is missing" >&2; exit 1; }; done
for package in Router ScreenKit; do
  [ -f "Packages/Foundation/$package/Package.swift" ] || { echo "check-doc-examples: Packages/Foundation/$package is missing" >&2; exit 1; }
done

mkdir -p "$work/Sources/ItemInterface" "$work/Sources/Item"
cat > "$work/Package.swift" <<EOF
// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "DocExamples",
    dependencies: [
        .package(path: "$root/Packages/Foundation/Router"),
        .package(path: "$root/Packages/Foundation/ScreenKit"),
    ],
    targets: [
        .target(name: "ItemInterface", dependencies: ["Router"]),
        .target(name: "Item", dependencies: ["ItemInterface", "Router", "ScreenKit"]),
    ]
)

// As in the workspace's packages: \`public import\` marks what a module's API exposes.
for target in package.targets {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("InternalImportsByDefault")]
}
EOF

# The interface as a feature's starts out: its routes, one of them already there; block 1 is added at the end.
{
  cat <<'EOF'
public import Router

/// The routes the Item feature owns.
public enum ItemRoute {
    /// One item's page.
    public struct Detail: Route, Equatable {
        public static let pattern: RoutePattern = "myapp://item/<int:id>"
        /// The item's id.
        public var id: Int
        /// Creates the route.
        public init(id: Int) { self.id = id }
    }
}

EOF
  block 1
} > "$work/Sources/ItemInterface/ItemInterface.swift"

# The module, with block 2 at the end of register(in:) and block 3 in a screen built there.
registration=$(block 2 | sed 's/^/        /')
link=$(block 3)
{
  cat <<'EOF'
public import Router
import ItemInterface
import ScreenKit

/// The Item feature's module: it owns the `myapp://item/...` routes.
public struct ItemModule: AppModule {
    public let name = "item"

    public init() {}

    public func register(in context: ModuleContext) throws {
        try context.router.register(ItemRoute.Detail.self, owner: name) { route, _ in Screen(title: "Item \(route.id)") }
EOF
  printf '%s\n' "$registration"
  printf '        _ = { () throws -> Screen in var screen = Screen(title: "x"); %s; return screen }\n' "$link"
  printf '    }\n}\n'
} > "$work/Sources/Item/ItemModule.swift"

if ! output=$(swift build --package-path "$work" 2>&1); then
  printf '%s\n' "$output" | grep -A3 'error:' >&2 || printf '%s\n' "$output" | tail -20 >&2
  echo "check-doc-examples: the swift blocks of docs/routes.md do not compile in the fixture" >&2
  exit 1
fi
printf '%s\n' "$output" | tail -3
echo "doc examples: 3 blocks of docs/routes.md compiled"
