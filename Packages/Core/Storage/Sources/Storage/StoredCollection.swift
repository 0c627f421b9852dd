import Foundation
import GRDB

/// A named set of records keyed by string, in insertion order; every call is one transaction.
public struct StoredCollection<Record: Codable & Sendable>: Sendable {
    /// The collection's name.
    public let name: String
    let storage: Storage

    /// Every record with its key, oldest first.
    public func all() throws -> [(key: String, value: Record)] {
        try storage.read { db in
            try Row.fetchAll(db, sql: "SELECT key, value FROM record WHERE collection = ? ORDER BY seq", arguments: [name])
                .map { row in (row["key"], try decode(row["value"], key: row["key"])) }
        }
    }

    /// Every record, oldest first.
    public func values() throws -> [Record] { try all().map(\.value) }

    /// The record under `key`, or nil.
    public func get(_ key: String) throws -> Record? {
        try storage.read { db in try fetch(key, in: db) }
    }

    /// Stores `record` under `key`, replacing any record there but keeping its place in the order.
    public func put(_ record: Record, for key: String) throws {
        try storage.write { db in try store(record, for: key, in: db) }
    }

    /// Reads, transforms and writes the record under `key` in one transaction; nil from `transform` removes it.
    @discardableResult
    public func update(_ key: String, _ transform: (Record?) throws -> Record?) throws -> Record? {
        try storage.write { db in
            guard let updated = try transform(try fetch(key, in: db)) else {
                try db.execute(sql: "DELETE FROM record WHERE collection = ? AND key = ?", arguments: [name, key])
                return nil
            }
            try store(updated, for: key, in: db)
            return updated
        }
    }

    /// Stores a new record under the next number of this collection's counter (1, 2, ...), made by `make`.
    @discardableResult
    public func append(_ make: (Int) throws -> Record) throws -> (id: Int, value: Record) {
        try storage.write { db in
            try db.execute(
                sql: """
                    INSERT INTO counter (collection, last) VALUES (?, 1)
                    ON CONFLICT(collection) DO UPDATE SET last = last + 1
                    """, arguments: [name])
            let id = try Int.fetchOne(db, sql: "SELECT last FROM counter WHERE collection = ?", arguments: [name]) ?? 1
            let record = try make(id)
            try store(record, for: String(id), in: db)
            return (id, record)
        }
    }

    /// Removes the record under `key`; returns whether there was one.
    @discardableResult
    public func remove(_ key: String) throws -> Bool {
        try storage.write { db in
            try db.execute(sql: "DELETE FROM record WHERE collection = ? AND key = ?", arguments: [name, key])
            return db.changesCount > 0
        }
    }

    /// Removes every record of the collection.
    public func removeAll() throws {
        try storage.write { db in try db.execute(sql: "DELETE FROM record WHERE collection = ?", arguments: [name]) }
    }

    private func fetch(_ key: String, in db: Database) throws -> Record? {
        guard let data = try Data.fetchOne(db, sql: "SELECT value FROM record WHERE collection = ? AND key = ?", arguments: [name, key]) else {
            return nil
        }
        return try decode(data, key: key)
    }

    private func store(_ record: Record, for key: String, in db: Database) throws {
        let data = try JSONEncoder().encode(record)
        try db.execute(
            sql: """
                INSERT INTO record (collection, key, seq, value)
                VALUES (?, ?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM record WHERE collection = ?), ?)
                ON CONFLICT(collection, key) DO UPDATE SET value = excluded.value
                """, arguments: [name, key, name, data])
    }

    private func decode(_ data: Data, key: String) throws -> Record {
        do {
            return try JSONDecoder().decode(Record.self, from: data)
        } catch {
            throw StorageError.corruptRecord(collection: name, key: key, reason: "\(error)")
        }
    }
}
