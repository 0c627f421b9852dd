import MallocInterposerSwift
import Router

/// An extension point whose plugins allocate nothing but themselves, so what a container's set-up costs
/// per plugin beyond the plugin's own object shows in the counts.
enum Bare: ExtensionPoint {
    static let id: ExtensionPointID = "bench/bare"
    typealias Plugin = any BarePlugin
}

protocol BarePlugin: ContainerPlugin {}
final class Nothing: BarePlugin {}

/// Distinct plugin definitions, one per tag type (a declaration lists a plugin once).
enum NothingPlugin<Tag>: PluginDefinition {
    typealias Point = Bare
    static var id: String { "nothing-\(Tag.self)" }
    static func make(_ context: PluginContext) throws -> any BarePlugin { Nothing() }
}

enum T0 {}
enum T1 {}
enum T2 {}
enum T3 {}
enum T4 {}
enum T5 {}
enum T6 {}
enum T7 {}

enum Allocations {
    static let definitions: [any PluginDefinition.Type] = [
        NothingPlugin<T0>.self, NothingPlugin<T1>.self, NothingPlugin<T2>.self, NothingPlugin<T3>.self,
        NothingPlugin<T4>.self, NothingPlugin<T5>.self, NothingPlugin<T6>.self, NothingPlugin<T7>.self,
    ]

    /// The allocations of `body`'s second run (the first makes the one-time ones, such as type metadata).
    static func count(_ body: () -> Int) -> Int {
        _ = body()
        MallocInterposerSwift.initialize()
        MallocInterposerSwift.hook()
        let checksum = body()
        MallocInterposerSwift.unhook()
        return MallocInterposerSwift.getStatistics().mallocCount + (checksum == Int.min ? 1 : 0)
    }

    /// The allocations of making and detaching one container of `plugins` bare plugins.
    static func setUp(_ plugins: Int) throws -> Int {
        let router = Router()
        let chosen = Array(definitions.prefix(plugins))
        try router.plugins.install(
            points: [Bare.self], definitions: chosen, declarations: chosen.map { PluginDeclaration(point: Bare.id, plugin: $0.id, source: "bench") })
        return count {
            let page = router.plugins.container(Bare.self, router: router)
            page.detach()
            return page.members.count
        }
    }

    /// Prints the container's allocations with 0, 1 and 8 plugins; exit status 1 when each plugin after
    /// the first costs the container more than the plugin's own object (the first one also makes the
    /// member list: one allocation per container).
    static func report() throws -> Int32 {
        guard count({ [UInt8](repeating: 1, count: 64 + Int.random(in: 0...1)).count }) > 0 else {
            print("allocations: not counted (run with LD_PRELOAD of libMallocInterposerSwift.so, as run.sh does)")
            return 1
        }
        let empty = try setUp(0), one = try setUp(1), eight = try setUp(8)
        let perPlugin = Double(eight - one) / 7
        print(
            "container set-up and detach: \(empty) allocations with no plugin, \(one) with 1, \(eight) with 8: \(String(format: "%.2f", perPlugin)) per plugin")
        print("  goal: at most 1 per plugin, the plugin's own object: \(perPlugin <= 1 ? "met" : "MISSED")")
        return perPlugin <= 1 ? 0 : 1
    }
}
