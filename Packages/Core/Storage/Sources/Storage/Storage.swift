import Foundation
import GRDB

/// The app's embedded SQLite database: named collections of Codable records, safe from any task.
///
/// Components never see SQL or GRDB: each keeps its state in collections it names
/// (`cart.lines`, `order.orders`), so a component's storage needs no schema of its own.
public final class Storage: Sendable {
    /// Where the database lives: a file path, or `:memory:`.
    public let location: String
    private let queue: DatabaseQueue

    /// Opens (creating if needed) the database file at `path`, making its folder if missing.
    public init(path: String) throws {
        let folder = (path as NSString).deletingLastPathComponent
        do {
            if !folder.isEmpty {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            }
            queue = try DatabaseQueue(path: path, configuration: Self.configuration)
            try Self.migrator.migrate(queue)
        } catch {
            throw StorageError.cannotOpen(path: path, reason: "\(error)")
        }
        location = path
    }

    /// Several Apps may share one database file: a writer waits for another's transaction (up to 10 s)
    /// instead of failing at once.
    private static var configuration: Configuration {
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        return configuration
    }

    /// A private database in memory, gone when the last reference goes: for tests and demos.
    public init() throws {
        queue = try DatabaseQueue()
        try Self.migrator.migrate(queue)
        location = ":memory:"
    }

    /// The collection `name` of `Record`s; one name should always be used with one record type.
    public func collection<Record: Codable & Sendable>(_ name: String, of type: Record.Type = Record.self) -> StoredCollection<Record> {
        StoredCollection(name: name, storage: self)
    }

    func read<T>(_ body: (Database) throws -> T) throws -> T {
        do { return try queue.read(body) } catch let error as StorageError { throw error } catch {
            throw StorageError.database(location: location, reason: "\(error)")
        }
    }

    /// Takes the write lock when the transaction begins (IMMEDIATE), so two processes writing the same file
    /// wait for each other instead of deadlocking on upgrading a read lock.
    func write<T>(_ body: (Database) throws -> T) throws -> T {
        do {
            return try queue.writeWithoutTransaction { db in
                var result: T?
                try db.inTransaction(.immediate) {
                    result = try body(db)
                    return .commit
                }
                guard let result else { throw StorageError.database(location: location, reason: "the transaction ended without a result") }
                return result
            }
        } catch let error as StorageError { throw error } catch {
            throw StorageError.database(location: location, reason: "\(error)")
        }
    }

    private static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1-records") { db in
            try db.execute(
                sql: """
                    CREATE TABLE record (
                        collection TEXT NOT NULL,
                        key TEXT NOT NULL,
                        seq INTEGER NOT NULL,
                        value BLOB NOT NULL,
                        PRIMARY KEY (collection, key)
                    );
                    CREATE TABLE counter (collection TEXT PRIMARY KEY, last INTEGER NOT NULL);
                    """)
        }
        return migrator
    }
}

/// What storage refuses, with the place and the next step.
public enum StorageError: Error, Sendable, CustomStringConvertible {
    /// The database file cannot be opened or created.
    case cannotOpen(path: String, reason: String)
    /// A query failed.
    case database(location: String, reason: String)
    /// A stored record no longer decodes as the type asked for.
    case corruptRecord(collection: String, key: String, reason: String)

    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason):
            "Cannot open the database at '\(path)': \(reason). Give the app a writable data folder."
        case .database(let location, let reason):
            "Database error in '\(location)': \(reason)."
        case .corruptRecord(let collection, let key, let reason):
            "Record '\(key)' in collection '\(collection)' does not decode: \(reason). Remove it or migrate the collection."
        }
    }
}
