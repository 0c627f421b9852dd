import Foundation
import Testing

@testable import ComponentKit

/// The `.d` files of a compile say which modules it loaded; the shared scratch folder reads megabytes of them before
/// each build, so it only looks where a path ends in `.swiftmodule`. It must find what reading every path finds.
@Suite struct DependencyFileTests {
    private let folders: Set<String> = ["/w/.build/x86_64-unknown-linux-gnu/debug/Modules/", "/w/.build/x86_64-unknown-linux-gnu/debug/Modules-tool/"]

    /// Every path of the file, split at spaces that are not escaped, as Make writes them.
    private func everyPath(_ text: String) -> Set<String> {
        var loaded = Set<String>()
        let paths = text.replacingOccurrences(of: "\\ ", with: "\u{0}").split(whereSeparator: \.isWhitespace)
        for path in paths.map({ $0.replacingOccurrences(of: "\u{0}", with: " ") }) where path.hasSuffix(".swiftmodule") {
            let file = URL(fileURLWithPath: path)
            if folders.contains(file.deletingLastPathComponent().path + "/") { loaded.insert(String(file.lastPathComponent.prefix { $0 != "." })) }
        }
        return loaded
    }

    @Test func findsTheModulesReadingEveryPathFindsInRandomDependencyFiles() {
        var random = SplitMix64(seed: 31)
        let pieces = [
            "/w/.build/x86_64-unknown-linux-gnu/debug/Modules/", "/w/.build/x86_64-unknown-linux-gnu/debug/Modules-tool/",
            "/w/.build/x86_64-unknown-linux-gnu/debug/Other/", "/opt/swift/usr/lib/swift/linux/", "/w/Sources/My\\ Module/",
        ]
        let names = ["Kit", "Values", "Swift.swiftmodule/x86_64-unknown-linux-gnu", "Glibc", "My\\ Kit", "a.b", "_C"]
        let endings = [".swiftmodule", ".swift", ".h", ".swiftmodule.d", ".swiftmodules", ""]
        let separators = [" ", " ", "\n", "\t", " \\\n  ", "\\\n", ": "]
        for _ in 0..<2_000 {
            var text = ""
            for _ in 0..<Int(random.next() % 12) {
                text += pieces[Int(random.next() % UInt64(pieces.count))] + names[Int(random.next() % UInt64(names.count))]
                text += endings[Int(random.next() % UInt64(endings.count))] + separators[Int(random.next() % UInt64(separators.count))]
            }
            if random.next() % 2 == 0 { text = String(text.dropLast()) }
            #expect(SharedScratch.swiftModules(namedIn: Data(text.utf8), under: folders) == everyPath(text), "\(text.debugDescription)")
        }
    }

    @Test func aNulByteDoesNotEndTheSearch() {
        let text = Data("a.o : /x.h\u{0}/w/.build/x86_64-unknown-linux-gnu/debug/Modules/Kit.swiftmodule\n".utf8)
        #expect(SharedScratch.swiftModules(namedIn: text, under: folders) == ["Kit"])
    }
}
