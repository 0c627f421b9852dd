import ComponentKit
public import Foundation

extension Scratch {
    /// A git repository holding a copy of the live workspace, committed.
    public static func sampleRepository() throws -> Scratch {
        let scratch = try Scratch.sample()
        try scratch.commitAsNewRepository()
        return scratch
    }

    /// Makes the scratch folder a new git repository with everything in it committed.
    public func commitAsNewRepository() throws {
        try git("init", "-q")
        try git("config", "user.name", "Test")
        try git("config", "user.email", "test@example.com")
        try git("add", "-A")
        try git("commit", "-qm", "initial")
    }

    /// Commits every change with `message`.
    public func commitAll(_ message: String) throws {
        try git("add", "-A")
        try git("commit", "-qm", message)
    }

    /// Runs the git CLI in the scratch folder (tests use it only to set up and to cross-check) and returns its output.
    @discardableResult
    public func git(_ arguments: String...) throws -> String {
        try run("/usr/bin/git", arguments)
    }

    /// Runs a program in the scratch folder; throws with its output when it fails. Returns standard output,
    /// then standard error.
    @discardableResult
    public func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws -> String {
        let run = try ProcessRunner.run(URL(fileURLWithPath: executable), arguments, in: root, environment: environment)
        let output = run.text + run.errorText
        guard run.status == 0 else { throw ScratchError.failed("\(executable) \(arguments.joined(separator: " ")): \(output)") }
        return output
    }

    /// The bytes of every file that a pin or release may change, to prove a failed command changed nothing.
    public func snapshot() throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in ["components.yaml", "components.lock", "Package.swift"] {
            files[name] = FileManager.default.contents(atPath: root.appendingPathComponent(name).path)
        }
        files["tags"] = Data(try git("for-each-ref", "refs/tags").utf8)
        files["pins"] = Data(
            ((try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("Packages").path)) ?? [])
                .filter { $0.hasPrefix(".pin-") }.sorted().joined(separator: ",").utf8)
        return files
    }
}

extension Scratch {
    /// The bytes of every file and the target of every link under the root, git's objects and componentctl's lock
    /// folder aside: what a refused command must leave exactly as it was.
    public func everyFile() throws -> [String: Data] {
        var files: [String: Data] = [:]
        let skipped = [".git/objects", ".componentctl"]
        guard let walker = FileManager.default.enumerator(atPath: root.path) else { return files }
        while let path = walker.nextObject() as? String {
            if skipped.contains(where: { path == $0 || path.hasPrefix($0 + "/") }) {
                walker.skipDescendants()
                continue
            }
            let url = root.appendingPathComponent(path)
            if let link = try? FileManager.default.destinationOfSymbolicLink(atPath: url.path) {
                files[path] = Data("link: \(link)".utf8)
            } else if FileManager.default.contents(atPath: url.path) == nil {
                files[path] = Data("folder".utf8)
            } else {
                files[path] = FileManager.default.contents(atPath: url.path)
            }
        }
        return files
    }
}
