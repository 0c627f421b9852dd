import Foundation
import Logging
import PluginFeed
import Router
import RuntimePlugins

/// The App's configuration files served from a URL (the degrade table, and documents of modules such as a
/// layout): fetched at start
/// with a short timeout and again on `foreground`, asked for only when changed (ETag, Last-Modified), and
/// taken only when signed by a trusted key and no older than the copy the App has. The last good copy,
/// kept in the data folder, is what the App uses whenever the server is down, slow, or serves anything else.
final class RemoteConfiguration: RemoteDocuments {
    /// One file the App takes from a URL.
    struct Document: Sendable {
        /// Its name in the data folder, in messages and to the modules that read it: `degrade-table`, `home-layout`.
        let name: String
        /// Where it is served; its signature is at the same URL with `.sig` added.
        let url: URL
        /// Reads the file's content and returns its `sequence`; throws when the App could not use it.
        let check: @Sendable (Data) throws -> Int?
    }

    /// A good copy as kept on disk: one file, so a kill never pairs a document with another's signature.
    private struct Copy: Codable {
        var url: String
        var document: Data
        var signature: Data
        var validators: HTTPValidators
    }

    private let documents: [Document]
    private let keys: TrustedKeys
    private let timeout: TimeInterval
    private let folder: URL
    private let logger: Logger

    init(documents: [Document], keys: TrustedKeys, timeout: TimeInterval, folder: URL, logger: Logger) {
        self.documents = documents
        self.keys = keys
        self.timeout = timeout
        self.folder = folder
        self.logger = logger
    }

    /// Asks each server for a newer copy, at once; never throws: a failure keeps the last good copy and is logged.
    func refresh() async {
        await withTaskGroup(of: Void.self) { group in
            for document in documents { group.addTask { await self.refresh(document) } }
        }
    }

    /// The last good copy of `name` (verified again as it is read) and where it came from, or nil.
    func current(_ name: String) -> (json: Data, source: String)? {
        guard let document = documents.first(where: { $0.name == name }), let copy = read(document) else { return nil }
        do {
            let sequence = try verified(copy, of: document)
            return (copy.document, "\(copy.url) (sequence \(sequence.map(String.init) ?? "none"))")
        } catch {
            logger.warning("the kept copy of a remote configuration file is not usable", metadata: ["file": "\(name)", "error": "\(error)"])
            return nil
        }
    }

    /// Which of the documents are configured, by name.
    var names: [String] { documents.map(\.name) }

    /// The kept copy's sequence, read from the document itself once its signature holds: the copy's own
    /// fields are only a cache, and a file edited by hand must not lower the bar for the next copy.
    private func verified(_ copy: Copy, of document: Document) throws -> Int? {
        try keys.verify(copy.document, signature: copy.signature, what: "the kept copy of \(document.name)")
        return try document.check(copy.document)
    }

    private func refresh(_ document: Document) async {
        // A kept copy that no longer verifies is as good as none: its validators must not turn a fresh
        // answer into a 304.
        let kept = read(document).flatMap { copy in (try? verified(copy, of: document)).map { (copy, $0) } }
        let deadline = Date().addingTimeInterval(timeout)
        func client() -> FeedClient {
            var client = FeedClient(feed: document.url.deletingLastPathComponent(), timeout: timeout)
            client.attempts = 1
            client.totalTimeout = max(0.05, deadline.timeIntervalSinceNow)
            return client
        }
        let name = document.url.lastPathComponent
        let described = "the \(document.name) at \(document.url.absoluteString)"
        do {
            let validators = kept?.0.url == document.url.absoluteString ? kept?.0.validators : nil
            guard case .fresh(let data, let fresh) = try await client().data(name, limit: 1 << 20, ifChangedSince: validators) else { return }
            let signature = try await client().data(name + ".sig", limit: 64 << 10)
            // The signature first: nothing of an unsigned document is read.
            try keys.verify(data, signature: signature, what: described)
            let sequence: Int?
            do {
                sequence = try document.check(data)
            } catch {
                throw FeedError("\(document.url.absoluteString) is no usable \(document.name): \(error)")
            }
            try SignedDocument.checkSequence(sequence, seen: kept?.1, what: described)
            if kept?.0.document == data, kept?.0.validators == fresh { return }
            try write(Copy(url: document.url.absoluteString, document: data, signature: signature, validators: fresh), of: document)
            logger.info("remote configuration file taken", metadata: ["file": "\(document.name)", "sequence": "\(sequence.map(String.init) ?? "none")"])
        } catch {
            logger.warning(
                "remote configuration file not taken; the last good copy stays",
                metadata: ["file": "\(document.name)", "url": "\(document.url.absoluteString)", "error": "\(error)"])
        }
    }

    private func file(of document: Document) -> URL { folder.appendingPathComponent("\(document.name).json") }

    private func read(_ document: Document) -> Copy? {
        FileManager.default.contents(atPath: file(of: document).path).flatMap { try? JSONDecoder().decode(Copy.self, from: $0) }
    }

    private func write(_ copy: Copy, of document: Document) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try AtomicFile.write(try JSONEncoder().encode(copy), to: file(of: document))
    }
}

extension RemoteConfiguration {
    static let degradeTable = "degrade-table"

    /// The remote configuration `environment` asks for, or nil when no file is served from a URL:
    /// REMOTE_CONFIG names a JSON file (`{"degrade-table": URL, "home-layout": URL, "keys": [...],
    /// "timeout": seconds}`: every key besides `keys` and `timeout` names a document), else the bundled
    /// remote-config.json; `<PREFIX>_<NAME>_URL` (`NOTES_DEGRADE_TABLE_URL`, `NOTES_HOME_LAYOUT_URL`) replaces
    /// the URL of the document of that name, or adds it. Throws naming what cannot be used.
    static func configured(environment: AppEnvironment, dataFolder: URL, logger: Logger) throws -> RemoteConfiguration? {
        struct File: Decodable {
            var urls: [String: String?] = [:]
            var keys: [String]?
            var timeout: Double?

            struct Key: CodingKey {
                var stringValue: String
                var intValue: Int? { nil }
                init(stringValue: String) { self.stringValue = stringValue }
                init?(intValue: Int) { nil }
            }

            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: Key.self)
                for key in container.allKeys {
                    switch key.stringValue {
                    case "keys": keys = try container.decode([String]?.self, forKey: key)
                    case "timeout": timeout = try container.decode(Double?.self, forKey: key)
                    default: urls[key.stringValue] = try container.decode(String?.self, forKey: key)
                    }
                }
            }
        }
        let source: URL
        if let path = environment[.remoteConfig] {
            source = URL(fileURLWithPath: path)
        } else if let bundled = Bundle.module.url(forResource: "remote-config", withExtension: "json") {
            source = bundled
        } else {
            throw FeedError("the bundled remote-config.json is missing from the build")
        }
        guard let data = FileManager.default.contents(atPath: source.path) else {
            throw FeedError("the remote configuration \(source.path) cannot be read (\(environment.name(.remoteConfig)) names a JSON file)")
        }
        let file: File = try FeedJSON.decode(data, what: "the remote configuration \(source.path)")
        func url(_ text: String?, _ variable: String) throws -> URL? {
            guard let text = environment.values[variable].flatMap({ $0.isEmpty ? nil : $0 }) ?? text else { return nil }
            guard let url = URL(string: text), ["http", "https", "file"].contains(url.scheme ?? ""), url.lastPathComponent.count > 1 else {
                throw FeedError("'\(text)' (\(variable) or \(source.lastPathComponent)) is no http://, https:// or file:// URL of a file")
            }
            return url
        }
        var documents: [Document] = []
        for name in Set(file.urls.keys).union([degradeTable]).union(environment.documentsWithURLs).sorted() {
            // The name is the kept copy's file name too.
            guard name.range(of: "^[a-z0-9]+(-[a-z0-9]+)*$", options: .regularExpression) != nil else {
                throw FeedError("\(source.lastPathComponent) names a document '\(name)'; a document's name is lower kebab case, like \"home-layout\"")
            }
            guard let documentURL = try url(file.urls[name] ?? nil, environment.urlName(ofDocument: name)) else { continue }
            if name == degradeTable {
                let source = documentURL.absoluteString
                documents.append(Document(name: name, url: documentURL) { data in try DegradeTable.decode(data, source: source).sequence })
            } else {
                documents.append(Document(name: name, url: documentURL, check: checkOutline))
            }
        }
        guard !documents.isEmpty else { return nil }
        let keys = try TrustedKeys(file.keys ?? [])
        guard !keys.ids.isEmpty else {
            throw FeedError("\(source.path) serves files from URLs but trusts no key: add the public key 'componentctl plugin keygen' printed to \"keys\"")
        }
        return RemoteConfiguration(
            documents: documents, keys: keys, timeout: file.timeout.map { max(0.1, $0) } ?? 2, folder: dataFolder.appendingPathComponent("remote-config"),
            logger: logger)
    }

    /// A module's document, as far as the shell can read it (the module reads the rest): a JSON object
    /// with an optional whole-number sequence.
    private static func checkOutline(_ data: Data) throws -> Int? {
        struct Outline: Decodable { var sequence: Int? }
        let outline: Outline = try FeedJSON.decode(data, what: "a document (a JSON object with an optional whole-number \"sequence\")")
        return outline.sequence
    }
}
