import Foundation
import Testing
import Storage

private struct Line: Codable, Sendable, Equatable {
    var product: Int
    var quantity: Int
}

@Suite struct StorageTests {
    private func temporaryPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("storage-\(UUID())/nested/db.sqlite").path
    }

    @Test func putGetUpdateRemoveKeepInsertionOrder() throws {
        let lines = try Storage().collection("cart.lines", of: Line.self)
        try lines.put(Line(product: 2, quantity: 1), for: "2")
        try lines.put(Line(product: 1, quantity: 1), for: "1")
        try lines.update("2") { line in line.map { Line(product: $0.product, quantity: $0.quantity + 4) } }
        #expect(try lines.values() == [Line(product: 2, quantity: 5), Line(product: 1, quantity: 1)])
        #expect(try lines.get("1") == Line(product: 1, quantity: 1))
        #expect(try lines.remove("1"))
        #expect(try !lines.remove("1"))
        try lines.update("2") { _ in nil }
        #expect(try lines.values().isEmpty)
    }

    @Test func collectionsAreSeparateAndAppendNumbersFromOne() throws {
        let storage = try Storage()
        let orders = storage.collection("orders", of: String.self)
        let other = storage.collection("other", of: String.self)
        #expect(try orders.append { "order \($0)" }.id == 1)
        #expect(try orders.append { "order \($0)" } == (2, "order 2"))
        #expect(try other.append { "x\($0)" }.id == 1)
        try orders.removeAll()
        #expect(try orders.values().isEmpty)
        #expect(try other.values() == ["x1"])
        #expect(try orders.append { "order \($0)" }.id == 3)
    }

    @Test func survivesReopeningTheFile() throws {
        let path = temporaryPath()
        do {
            let storage = try Storage(path: path)
            try storage.collection("session", of: String.self).put("alice", for: "user")
        }
        let reopened = try Storage(path: path)
        #expect(try reopened.collection("session", of: String.self).get("user") == "alice")
        #expect(reopened.location == path)
    }

    @Test func unreadableRecordsAndUnopenableFilesAreClearErrors() throws {
        let storage = try Storage()
        try storage.collection("c", of: String.self).put("text", for: "k")
        #expect(throws: StorageError.self) { try storage.collection("c", of: Line.self).get("k") }
        #expect(throws: StorageError.self) { try Storage(path: "/proc/forbidden/db.sqlite") }
    }

    @Test func locationHonoursOverrideThenXDGThenHome() {
        #expect(StorageLocation.databasePath(dataFolder: "/d", named: "notes", environment: ["XDG_DATA_HOME": "/x", "HOME": "/h"]) == "/d/notes.sqlite")
        #expect(StorageLocation.databasePath(dataFolder: "", named: "notes", environment: ["XDG_DATA_HOME": "/x", "HOME": "/h"]) == "/x/notes/notes.sqlite")
        #expect(StorageLocation.databasePath(dataFolder: nil, named: "notes", environment: ["HOME": "/h"]) == "/h/.local/share/notes/notes.sqlite")
    }

    @Test func concurrentUpdatesNeverLoseAWrite() async throws {
        let counter = try Storage().collection("n", of: Int.self)
        await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<50 { group.addTask { try counter.update("k") { ($0 ?? 0) + 1 } } }
        }
        #expect(try counter.get("k") == 50)
    }

    /// Two connections to one file stand for two App processes: each read-then-write must wait for the
    /// other instead of failing with "database is locked".
    @Test func twoConnectionsToOneFileNeverLoseAWrite() async throws {
        let path = temporaryPath()
        let first = try Storage(path: path).collection("n", of: Int.self)
        let second = try Storage(path: path).collection("n", of: Int.self)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<40 {
                let counter = index.isMultiple(of: 2) ? first : second
                group.addTask { _ = try counter.update("k") { ($0 ?? 0) + 1 } }
            }
            try await group.waitForAll()
        }
        #expect(try first.get("k") == 40)
    }
}
