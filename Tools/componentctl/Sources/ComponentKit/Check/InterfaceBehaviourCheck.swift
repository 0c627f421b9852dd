import Foundation

/// Interface packages hold declarations only (``InterfaceScanner`` says exactly what that allows): a
/// "public header" with behaviour in it makes every feature that imports it depend on that behaviour,
/// which then cannot change without all of them. Their `…TestSupport` targets (stand-ins for tests and
/// demos) are exempt.
struct InterfaceBehaviourCheck {
    let analysis: WorkspaceAnalysis

    func findings() -> [Diagnostic] {
        let root = analysis.workspace.root
        var findings: [Diagnostic] = []
        for component in analysis.workspace.components where component.kind == .interface {
            for target in analysis.packages[component.name]?.targets ?? []
            where target.declaration.kind == .regular && !LayerChecker.isTestSupport(target.declaration.name) {
                for file in target.files {
                    guard let data = FileManager.default.contents(atPath: root.appendingPathComponent(file.path).path) else { continue }
                    for found in InterfaceScanner.scan(Array(data)) {
                        findings.append(
                            Diagnostic(
                                path: file.path, line: found.line, column: found.column,
                                message: "interface '\(component.name)' holds behaviour: \(found.what)", fix: found.fix, rule: "interface-behaviour"))
                    }
                }
            }
        }
        return findings
    }
}
