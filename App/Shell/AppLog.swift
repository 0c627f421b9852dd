import Foundation
public import Logging
import Router

/// The App's log: one line per message on standard error, `LEVEL: message key=value ...` with the
/// metadata sorted, at or above the level the LOG setting chooses (default `warning`). Components log through
/// swift-log's `Logger` as any package does; the App bootstraps this handler once at start.
public struct AppLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level
    private let write: @Sendable (String) -> Void

    /// A handler at `level` that hands each line to `write`.
    public init(level: Logger.Level, write: @escaping @Sendable (String) -> Void) {
        self.logLevel = level
        self.write = write
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        let all = metadata.merging(event.metadata ?? [:]) { _, new in new }
        let pairs = all.sorted { $0.key < $1.key }.map { "\(Self.oneLine($0.key))=\(Self.oneLine("\($0.value)"))" }
        write(([Self.prefix(event.level) + Self.oneLine("\(event.message)")] + pairs).joined(separator: " ") + "\n")
    }

    /// `text` on one line: a message or value carrying a line break (a server's error page, a crafted link)
    /// cannot forge lines of its own in the log.
    static func oneLine(_ text: String) -> String {
        guard text.contains(where: \.isNewline) else { return text }
        return text.unicodeScalars.map { scalar in
            switch scalar {
            case "\n": "\\n"
            case "\r": "\\r"
            default: Character(scalar).isNewline ? "\\u{\(String(scalar.value, radix: 16))}" : String(scalar)
            }
        }.joined()
    }

    private static func prefix(_ level: Logger.Level) -> String {
        switch level {
        case .trace: "trace: "
        case .debug: "debug: "
        case .info: "info: "
        case .notice: "notice: "
        case .warning: "warning: "
        case .error, .critical: "error: "
        }
    }

    /// The level the LOG setting names (`1` is `info`, as before levels existed); throws naming the accepted values.
    static func level(environment: AppEnvironment) throws -> Logger.Level {
        guard let text = environment[.log], text != "0" else { return .warning }
        if text == "1" { return .info }
        guard let level = Logger.Level(rawValue: text.lowercased()) else {
            throw AppLogError(
                "\(environment.name(.log)) is '\(text)'; it takes a level: \(Logger.Level.allCases.map(\.rawValue).joined(separator: ", ")) (or 1 for info)")
        }
        return level
    }
}

/// A log setting the App cannot use.
struct AppLogError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Sees everything that goes past the App's routes and modules, and logs it with structured metadata:
/// routing misses, degrade hits, refused external links, unknown services, disabled modules and failed
/// events (the seeds' "unrecognized selector" reporting).
struct AppObserver: Sendable {
    let logger: Logger

    func routing(_ event: RoutingEvent) {
        switch event {
        case .noRoute(let url, let origin):
            logger.notice("no route", metadata: ["url": "\(url)", "origin": "\(origin.rawValue)"])
        case .degraded(let url, let pattern, let target, let reason):
            logger.warning(
                "degraded route", metadata: ["url": "\(url)", "pattern": "\(pattern)", "target": "\(target)", "reason": "\(reason ?? "-")"])
        case .refusedExternalLink(let reason):
            logger.warning("refused external link", metadata: ["reason": "\(reason)"])
        case .unknownService(let service):
            logger.warning("unknown service", metadata: ["service": "\(service)"])
        }
    }

    func modules(_ report: ModuleReport) {
        switch report {
        case .disabled(let module, let reason, _):
            logger.error("module disabled", metadata: ["module": "\(module)", "reason": "\(reason)"])
        case .eventFailed(let module, let event, let error):
            logger.warning("lifecycle event failed", metadata: ["module": "\(module)", "event": "\(event)", "error": "\(error)"])
        case .delivered(let module, let event):
            logger.debug("lifecycle event delivered", metadata: ["module": "\(module)", "event": "\(event)"])
        }
    }
}
