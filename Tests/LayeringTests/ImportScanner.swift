import Foundation

/// A stopgap guard until `componentctl check-layers` runs in CI: finds business implementations
/// that import or depend on another business implementation.
///
/// It skips comments and string literals line by line, which is enough for this workspace's
/// sources; componentctl has the real lexer.
struct LayeringGuard {
    struct Finding: Equatable, CustomStringConvertible {
        var file: String
        var line: Int
        var message: String
        var description: String { "\(file):\(line): error: \(message)" }
    }

    let root: URL

    /// The business implementation packages: folders under Packages/Business.
    func businessPackages() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("Packages/Business").path)
            .filter { !$0.hasPrefix(".") }.sorted()
    }

    func findings() throws -> [Finding] {
        let business = try businessPackages()
        var findings: [Finding] = []
        for package in business {
            let folder = root.appendingPathComponent("Packages/Business/\(package)")
            let manifest = folder.appendingPathComponent("Package.swift")
            let manifestText = try String(contentsOf: manifest, encoding: .utf8)
            for (number, line) in manifestText.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                for other in business where other != package && line.contains("\"../\(other)\"") || line.contains("Business/\(other)\"") && other != package {
                    findings.append(Finding(file: relative(manifest), line: number + 1,
                                            message: "\(package) depends on business implementation \(other); depend on \(other)Interface instead"))
                }
            }
            for file in try swiftFiles(in: folder.appendingPathComponent("Sources")) {
                for (number, module) in try imports(in: file) {
                    guard business.contains(module), module != package, module != package + "Demo" else { continue }
                    findings.append(Finding(file: relative(file), line: number,
                                            message: "\(package) imports business implementation \(module); import \(module)Interface and use the router"))
                }
            }
        }
        return findings
    }

    /// The modules a Swift file imports, with line numbers.
    func imports(in file: URL) throws -> [(line: Int, module: String)] {
        var result: [(Int, String)] = []
        var inBlockComment = 0
        for (number, rawLine) in try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var line = Substring(rawLine)
            if inBlockComment > 0 {
                guard let end = line.range(of: "*/") else { continue }
                inBlockComment -= 1
                line = line[end.upperBound...]
            }
            if let start = line.range(of: "/*") {
                inBlockComment += line[start.upperBound...].contains("*/") ? 0 : 1
                line = line[..<start.lowerBound]
            }
            if let comment = line.range(of: "//") { line = line[..<comment.lowerBound] }
            var words = line.split(whereSeparator: \.isWhitespace).map(String.init)
            while let first = words.first, first.hasPrefix("@") || ["public", "package", "internal", "fileprivate", "private"].contains(first) {
                words.removeFirst()
            }
            guard words.first == "import", words.count >= 2 else { continue }
            let kinds = ["struct", "class", "enum", "protocol", "typealias", "func", "var", "let"]
            let path = kinds.contains(words[1]) && words.count >= 3 ? words[2] : words[1]
            result.append((number + 1, String(path.split(separator: ".").first ?? "")))
        }
        return result
    }

    private func swiftFiles(in folder: URL) throws -> [URL] {
        guard let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { return [] }
        return enumerator.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }.sorted { $0.path < $1.path }
    }

    private func relative(_ url: URL) -> String {
        String(url.path.dropFirst(root.path.count + 1))
    }
}
