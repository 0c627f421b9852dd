import Foundation
import Testing
import TestSupport

@testable import ComponentKit

/// The shared scratch folder keeps each external checkout by revision; a copy no build used for a while goes.
@Suite struct KeptCheckoutsTests {
    private let revision = String(repeating: "a", count: 40)
    private let old = Date().addingTimeInterval(-SharedScratch.keptCheckoutLifetime - 3600)

    private func copy(_ name: String, in scratch: SharedScratch, usedAt date: Date) throws -> URL {
        let folder = scratch.folder.appendingPathComponent("componentctl-checkouts/\(name)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent(".git"), withIntermediateDirectories: true)
        try Data("\(revision)\n".utf8).write(to: folder.appendingPathComponent(".git/HEAD"))
        try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: folder.path)
        return folder
    }

    @Test func aKeptCheckoutNoBuildUsedForItsLifetimeIsRemovedAndTheRestStay() throws {
        let scratch = SharedScratch(root: try Scratch(named: "kept").root, configuration: "debug")
        let stale = try copy("swift-log@\(revision)", in: scratch, usedAt: old)
        let recent = try copy("swift-log@\(String(repeating: "b", count: 40))", in: scratch, usedAt: Date())
        let current = try copy("swift-nio@\(revision)", in: scratch, usedAt: old)
        let linked = try copy("swift-crypto@\(revision)", in: scratch, usedAt: old)
        let users = try copy("notes-of-the-team", in: scratch, usedAt: old)
        let checkouts = scratch.folder.appendingPathComponent("checkouts")
        try FileManager.default.createDirectory(at: checkouts, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            atPath: checkouts.appendingPathComponent("swift-crypto").path, withDestinationPath: "../componentctl-checkouts/swift-crypto@\(revision)")

        scratch.removeKeptCheckouts(unusedSince: Date().addingTimeInterval(-SharedScratch.keptCheckoutLifetime), except: ["swift-nio@\(revision)"])

        #expect(!FileManager.default.fileExists(atPath: stale.path), "no build used it for its lifetime")
        #expect(FileManager.default.fileExists(atPath: recent.path))
        #expect(FileManager.default.fileExists(atPath: current.path), "this build uses it")
        #expect(FileManager.default.fileExists(atPath: linked.path), "a link of checkouts/ leads to it")
        #expect(FileManager.default.fileExists(atPath: users.path), "a name componentctl never makes is not its to remove")
    }
}
