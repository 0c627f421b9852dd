import Glibc
import PluginFeed
import Router

/// Loads one verified runtime plugin into the running App: `dlopen`, the manifest's entry symbol, and the
/// registration of what it exports, held to what its manifest declares.
///
/// A library is never closed again (`dlclose` of a Swift image is unsafe: its metadata stays registered
/// with the runtime), so a plugin loaded once stays until the App exits.
enum PluginLoader {
    /// What one load added.
    struct Loaded {
        var module: (any AppModule)?
    }

    /// Loads `library` and registers its export on `router`; throws naming what was refused. On failure
    /// nothing the plugin registered stays registered.
    static func load(_ manifest: PluginManifest, library: String, router: Router, settings: [String: String]) throws -> Loaded {
        guard let handle = dlopen(library, RTLD_NOW | RTLD_LOCAL) else {
            throw FeedError("the library does not load: \(dlerror().map { String(cString: $0) } ?? "unknown reason")")
        }
        guard let symbol = dlsym(handle, manifest.entry) else {
            throw FeedError("the library has no entry symbol '\(manifest.entry)'")
        }
        typealias Entry = @convention(c) () -> UnsafeMutableRawPointer?
        guard let pointer = unsafeBitCast(symbol, to: Entry.self)(), let export = RuntimePluginExport.take(pointer) else {
            throw FeedError(
                "the entry '\(manifest.entry)' returned no RuntimePluginExport of this App's Router: the plugin links its own copy of the router "
                    + "(it must depend on the RouterDynamic product, not Router)")
        }
        let declared = Set(manifest.contributions.map { [$0.point, $0.plugin] })
        for contribution in export.contributions where !declared.contains([contribution.point.rawValue, contribution.plugin]) {
            throw FeedError("it contributes '\(contribution.plugin)' to \(contribution.point), which its manifest does not declare")
        }
        let context = ModuleContext(router: router, settings: settings)
        let before = Set(router.routes.map(\.pattern))
        do {
            try export.module?.register(in: context)
            for definition in export.definitions { try definition.register(in: context) }
            let added = router.routes.filter { !before.contains($0.pattern) }
            if let undeclared = added.first(where: { !manifest.routes.contains($0.pattern) }) {
                throw FeedError("it registers the route \(undeclared.pattern), which its manifest does not declare")
            }
            if let foreign = added.first(where: { $0.owner != manifest.id }) {
                throw FeedError("it registers the route \(foreign.pattern) for '\(foreign.owner)', not for itself")
            }
            for definition in export.definitions {
                try router.plugins.add(definition, source: "runtime plugin \(manifest.id) \(manifest.version)")
            }
        } catch {
            for route in router.routes where !before.contains(route.pattern) { _ = try? router.unregister(route.pattern) }
            if let error = error as? FeedError { throw error }
            throw FeedError("its registration failed: \(error)")
        }
        return Loaded(module: export.module)
    }
}
