import Router

/// `<PREFIX>_FAIL_MODULE=NAME[:register|:launch]` makes one module fail on purpose (while registering, by
/// default, or while launching): how the fault isolation is shown and tested on the real App.
enum FaultInjection {
    /// The modules with the one `environment` names wrapped to fail; throws on a setting it cannot use.
    static func apply(_ environment: AppEnvironment, to modules: [any AppModule]) throws -> [any AppModule] {
        guard let setting = environment[.failModule] else { return modules }
        let variable = environment.name(.failModule)
        let parts = setting.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        let step = parts.count == 2 ? parts[1] : "register"
        guard ["register", "launch"].contains(step) else {
            throw AppSettingError("\(variable) is '\(setting)'; it takes a module's name, then optionally :register or :launch")
        }
        guard modules.contains(where: { $0.name == parts[0] }) else {
            throw AppSettingError(
                "\(variable) names '\(parts[0])', which is no module of this app; it has \(modules.map(\.name).sorted().joined(separator: ", "))")
        }
        return modules.map { $0.name == parts[0] ? Failing(wrapped: $0, atLaunch: step == "launch", variable: variable) : $0 }
    }

    private struct Failure: Error, CustomStringConvertible {
        var variable: String
        var description: String { "it fails on purpose (\(variable))" }
    }

    /// A module that behaves as `wrapped` but throws at one step.
    private struct Failing: AppModule {
        let wrapped: any AppModule
        let atLaunch: Bool
        let variable: String

        var name: String { wrapped.name }
        var priority: Int { wrapped.priority }
        var dependencies: [String] { wrapped.dependencies }
        var events: Set<LifecycleEvent.Kind> { atLaunch ? wrapped.events.union([.launch]) : wrapped.events }
        var announces: Set<LifecycleEvent.Kind> { wrapped.announces }
        var launchTiming: LaunchTiming { wrapped.launchTiming }

        func register(in context: ModuleContext) throws {
            try wrapped.register(in: context)
            if !atLaunch { throw Failure(variable: variable) }
        }

        func handle(_ event: LifecycleEvent, in context: ModuleContext) async throws {
            if atLaunch, case .launch = event { throw Failure(variable: variable) }
            if wrapped.events.contains(event.kind) { try await wrapped.handle(event, in: context) }
        }
    }
}
