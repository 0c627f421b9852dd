extension Scratch {
    /// Adds a path dependency, a target dependency and an import to the package at `component`, so only
    /// the layering itself is wrong: how mutation tests inject a dependency.
    public func addDependency(component: String, target: String, on path: String, module: String, source: String) throws {
        let manifest = "\(component)/Package.swift"
        if try read(manifest).contains("    dependencies: [\n") {
            try replace(in: manifest, "    dependencies: [\n", with: "    dependencies: [\n        .package(path: \"\(path)\"),\n")
        } else {
            try replace(in: manifest, "    targets: [\n", with: "    dependencies: [.package(path: \"\(path)\")],\n    targets: [\n")
        }
        if try read(manifest).contains(".target(name: \"\(target)\", dependencies: [") {
            try replace(in: manifest, ".target(name: \"\(target)\", dependencies: [", with: ".target(name: \"\(target)\", dependencies: [\"\(module)\", ")
        } else {
            try replace(in: manifest, ".target(name: \"\(target)\")", with: ".target(name: \"\(target)\", dependencies: [\"\(module)\"])")
        }
        try write("\(component)/Sources/\(target)/\(source)", "import \(module)\n")
    }
}
