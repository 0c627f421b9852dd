import ComponentKit
import Testing

/// The import scanner's fixtures corpus: each case is a source and exactly the imports it makes,
/// written `Module@line` (with `[attributes]`, `{access}`, `<kind>` and `?conditions` when present).
struct ImportFixture: CustomTestStringConvertible, Sendable {
    let name: String
    let source: String
    let expected: [String]
    var testDescription: String { name }
}

private let fixtures: [ImportFixture] = [
    .init(name: "plain", source: "import Foundation\nimport Cart\n", expected: ["Foundation@1", "Cart@2"]),
    .init(name: "semicolons", source: "import A; import B\n", expected: ["A@1", "B@1"]),
    .init(name: "after code", source: "let x = 1\nimport Late\n", expected: ["Late@2"]),
    .init(name: "line comment", source: "// import Hidden\nimport Shown\n", expected: ["Shown@2"]),
    .init(name: "trailing comment", source: "import Shown // import Hidden\n", expected: ["Shown@1"]),
    .init(name: "doc comment", source: "/// import Hidden\nimport Shown\n", expected: ["Shown@2"]),
    .init(name: "block comment", source: "/* import Hidden */ import Shown\n", expected: ["Shown@1"]),
    .init(name: "multi-line block comment", source: "/*\nimport Hidden\n*/\nimport Shown\n", expected: ["Shown@4"]),
    .init(name: "nested block comment", source: "/* a /* import Hidden */ import Hidden2 */\nimport Shown\n", expected: ["Shown@2"]),
    .init(name: "comment markers in strings", source: "let s = \"/*\"\nimport Shown\nlet t = \"*/\"\n", expected: ["Shown@2"]),
    .init(name: "string literal", source: "let s = \"import Hidden\"\nimport Shown\n", expected: ["Shown@2"]),
    .init(name: "escaped quote", source: "let s = \"a \\\" import Hidden\"\nimport Shown\n", expected: ["Shown@2"]),
    .init(name: "multi-line string", source: "let s = \"\"\"\nimport Hidden\n\"\"\"\nimport Shown\n", expected: ["Shown@4"]),
    .init(name: "multi-line string with quotes", source: "let s = \"\"\"\n\"quoted\" import Hidden \"\"\n\"\"\"\nimport Shown\n", expected: ["Shown@4"]),
    .init(name: "raw string", source: "let s = #\"import \"Hidden\"\"#\nimport Shown\n", expected: ["Shown@2"]),
    .init(name: "raw string with two hashes", source: "let s = ##\"a \"# import Hidden\"##\nimport Shown\n", expected: ["Shown@2"]),
    .init(name: "raw multi-line string", source: "let s = #\"\"\"\n\"\"\" import Hidden\n\"\"\"#\nimport Shown\n", expected: ["Shown@4"]),
    .init(name: "interpolation", source: "let s = \"\\(x) import Hidden\"\nimport Shown\n", expected: ["Shown@2"]),
    .init(name: "nested interpolation with strings", source: "let s = \"\\(f(\"import Hidden\", \"\\(g(\")\"))\")) x\"\nimport Shown\n", expected: ["Shown@2"]),
    .init(name: "raw interpolation", source: "let s = #\"\\#(a + \"import Hidden\") x\"#\nimport Shown\n", expected: ["Shown@2"]),
    .init(name: "interpolation with comment", source: "let s = \"\\(a /* ) import Hidden */ )\"\nimport Shown\n", expected: ["Shown@2"]),
    .init(name: "extended regex literal", source: "let r = #/import Hidden \"/#\nimport Shown\n", expected: ["Shown@2"]),
    .init(name: "testable", source: "@testable import Cart\n", expected: ["Cart@1[testable]"]),
    .init(name: "exported", source: "@_exported import Models\n", expected: ["Models@1[_exported]"]),
    .init(name: "implementation only", source: "@_implementationOnly import Secret\n", expected: ["Secret@1[_implementationOnly]"]),
    .init(name: "preconcurrency", source: "@preconcurrency import Legacy\n", expected: ["Legacy@1[preconcurrency]"]),
    .init(name: "spi", source: "@_spi(Internal) import Kit\n", expected: ["Kit@1[_spi]"]),
    .init(name: "two attributes on two lines", source: "@testable\n@preconcurrency\nimport Cart\n", expected: ["Cart@3[testable,preconcurrency]"]),
    .init(name: "public import", source: "public import Router\n", expected: ["Router@1{public}"]),
    .init(name: "package import", source: "package import Router\n", expected: ["Router@1{package}"]),
    .init(name: "internal import", source: "internal import Router\n", expected: ["Router@1{internal}"]),
    .init(name: "private import", source: "private import Router\nfileprivate import Other\n", expected: ["Router@1{private}", "Other@2{fileprivate}"]),
    .init(name: "attribute and access level", source: "@preconcurrency public import Legacy\n", expected: ["Legacy@1[preconcurrency]{public}"]),
    .init(name: "import struct", source: "import struct Cart.CartStore\n", expected: ["Cart@1<struct>"]),
    .init(name: "import func and protocol", source: "import func Darwin.sqrt\nimport protocol A.B\n", expected: ["Darwin@1<func>", "A@2<protocol>"]),
    .init(name: "submodule", source: "import Foundation.NSString\n", expected: ["Foundation@1"]),
    .init(name: "backticked module", source: "import `Order`\n", expected: ["Order@1"]),
    .init(
        name: "canImport branch", source: "#if canImport(UIKit)\nimport UIKit\n#else\nimport AppKit\n#endif\n",
        expected: ["UIKit@2?canImport(UIKit)", "AppKit@4?!(canImport(UIKit))"]),
    .init(
        name: "os branches", source: "#if os(Linux)\nimport Glibc\n#elseif os(macOS)\nimport Darwin\n#endif\nimport After\n",
        expected: ["Glibc@2?os(Linux)", "Darwin@4?os(macOS)", "After@6"]),
    .init(name: "nested branches", source: "#if DEBUG\n#if canImport(X)\nimport X\n#endif\n#endif\n", expected: ["X@3?DEBUG&canImport(X)"]),
    .init(name: "directive with comment", source: "#if canImport(Y) // why\nimport Y\n#endif\n", expected: ["Y@2?canImport(Y)"]),
    .init(name: "member named import", source: "let a = b.import\nimport Shown\n", expected: ["Shown@2"]),
    .init(name: "argument label import", source: "f(import: 1)\nfunc g(import x: Int) {}\n", expected: []),
    .init(name: "backticked import identifier", source: "let `import` = 1\nimport Shown\n", expected: ["Shown@2"]),
    .init(name: "column counts characters", source: "/* ü */ import Ünïcode\n", expected: ["Ünïcode@1"]),
    .init(name: "BOM", source: "\u{FEFF}import Foundation\n", expected: ["Foundation@1"]),
    .init(name: "CRLF lines", source: "import A\r\nimport B\r\n", expected: ["A@1", "B@2"]),
    .init(name: "unterminated string stops at line end", source: "let s = \"oops\nimport Shown\n", expected: ["Shown@2"]),
    .init(name: "import inside a type is still an import token", source: "struct S {\n  let x = 1\n}\nimport Shown\n", expected: ["Shown@4"]),
    .init(name: "pound words are not directives", source: "let l = #line\nif #available(macOS 10, *) {}\nimport Shown\n", expected: ["Shown@3"]),
    .init(name: "empty file", source: "", expected: []),
]

@Suite struct ImportScannerTests {
    @Test(arguments: fixtures)
    func scans(_ fixture: ImportFixture) {
        let found = ImportScanner.imports(in: Array(fixture.source.utf8)).map { declaration in
            var text = "\(declaration.module)@\(declaration.line)"
            if !declaration.attributes.isEmpty { text += "[\(declaration.attributes.joined(separator: ","))]" }
            if let access = declaration.accessLevel { text += "{\(access)}" }
            if let kind = declaration.kind { text += "<\(kind)>" }
            if !declaration.conditions.isEmpty { text += "?" + declaration.conditions.joined(separator: "&") }
            return text
        }
        #expect(found == fixture.expected)
    }

    @Test func corpusIsLargeEnough() {
        #expect(fixtures.count >= 40)
    }

    @Test func columnsAreOneBasedCharacters() {
        let declaration = ImportScanner.imports(in: Array("/* ü */ import Ünïcode\n".utf8))
        #expect(declaration.first?.column == 16)
        #expect(ImportScanner.imports(in: Array("  @testable import Cart".utf8)).first?.column == 20)
    }

    @Test func canImportGuardIsRecognisedOnlyInItsOwnBranch() {
        let imports = ImportScanner.imports(in: Array("#if canImport(UIKit)\nimport UIKit\n#else\nimport UIKit\n#endif\n".utf8))
        #expect(imports.map(\.isGuardedByCanImport) == [true, false])
    }
}
