import Foundation

/// An application lifecycle event: what the App announces to the modules that declare it (``AppModule/events``),
/// with what it carries.
public enum LifecycleEvent: Sendable {
    /// The app finished launching (modules are registered), and how it was started.
    case launch(LaunchOptions)
    /// A URL reached the app from outside, before it is routed: a module may claim it (nothing opens) or
    /// rewrite it (the next modules and the router see the new one).
    case openURL(IncomingURL)
    /// A push or local notification arrived.
    case notification(PushNotification)
    /// The app came to the foreground (the interactive shell started).
    case foreground
    /// The app went to the background (the interactive shell ends); delivered in reverse boot order.
    case background
    /// The system is short of memory: drop what can be rebuilt.
    case memoryWarning
    /// The app is about to exit; delivered in reverse boot order.
    case terminate
    /// An event of the app's own, by name (announced by a module, ``AppModule/announces``), with values.
    case custom(LifecycleEvent.Kind, [String: String])

    /// The kind of event, as modules declare what they handle.
    public var kind: Kind {
        switch self {
        case .launch: .launch
        case .openURL: .openURL
        case .notification: .notification
        case .foreground: .foreground
        case .background: .background
        case .memoryWarning: .memoryWarning
        case .terminate: .terminate
        case .custom(let kind, _): kind
        }
    }

    /// Whether modules hear it last-booted first (the way down), rather than in boot order.
    var isReversed: Bool { self.kind == .background || self.kind == .terminate }

    /// A kind of lifecycle event, by name: the built-in ones, or an app's own (`cart.synced`).
    public struct Kind: Hashable, Sendable, Comparable, CustomStringConvertible, ExpressibleByStringLiteral {
        /// The name: a built-in one, or lower-case words with dots or dashes for an app's own.
        public let name: String

        /// The kind named `name`.
        public init(_ name: String) { self.name = name }

        public init(stringLiteral name: String) { self.name = name }

        /// `launch`.
        public static let launch = Kind("launch")
        /// `open-url`.
        public static let openURL = Kind("open-url")
        /// `notification`.
        public static let notification = Kind("notification")
        /// `foreground`.
        public static let foreground = Kind("foreground")
        /// `background`.
        public static let background = Kind("background")
        /// `memory-warning`.
        public static let memoryWarning = Kind("memory-warning")
        /// `terminate`.
        public static let terminate = Kind("terminate")

        /// The kinds the App itself announces.
        public static let builtIn: [Kind] = [.launch, .openURL, .notification, .foreground, .background, .memoryWarning, .terminate]

        /// Whether `name` can name an app's own event: lower-case letters and digits in words joined by dots or dashes.
        public var isWellFormedCustomName: Bool {
            let words = name.split(separator: ".", omittingEmptySubsequences: false).flatMap { $0.split(separator: "-", omittingEmptySubsequences: false) }
            return !words.isEmpty
                && words.allSatisfy { word in !word.isEmpty && word.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) } }
        }

        public var description: String { name }

        public static func < (lhs: Kind, rhs: Kind) -> Bool { lhs.name < rhs.name }
    }
}

/// How the app was started.
public struct LaunchOptions: Sendable, Equatable {
    /// What started it.
    public enum Source: Sendable, Equatable {
        /// By hand, with nothing to open.
        case plain
        /// To open a URL (`App open URL`, a deep link).
        case url(String)
        /// By a notification (`App notify PAYLOAD`).
        case notification(PushNotification)
    }

    /// What started it.
    public var source: Source

    /// Options of a launch from `source`.
    public init(source: Source = .plain) { self.source = source }

    /// A plain launch.
    public static let plain = LaunchOptions()
}

/// A push or local notification's payload: a flat JSON object (`{"type": "session-revoked", "user": "alice"}`).
public struct PushNotification: Sendable, Equatable {
    /// The payload's values, as strings.
    public var values: [String: String]

    /// A notification carrying `values`.
    public init(_ values: [String: String]) { self.values = values }

    /// The value of `key`.
    public subscript(key: String) -> String? { values[key] }

    /// The notification's `type`, by convention what it is about.
    public var type: String? { values["type"] }

    /// The notification a JSON object describes (`{"type": "session-revoked", "user": "alice"}`): strings,
    /// numbers and booleans, no nesting; throws saying what is wrong.
    public init(json: String) throws {
        guard let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)), let dictionary = object as? [String: Any] else {
            throw NotificationPayloadError(
                description: "a notification's payload is a JSON object, like {\"type\": \"session-revoked\"}, not '\(json.prefix(80))'")
        }
        var values: [String: String] = [:]
        for (key, value) in dictionary {
            switch value {
            case let text as String: values[key] = text
            case let number as NSNumber: values[key] = number.stringValue
            default:
                throw NotificationPayloadError(
                    description: "the notification's '\(key)' holds a list or an object; a payload's values are strings, numbers or booleans")
            }
        }
        self.values = values
    }
}

/// A notification payload that cannot be read.
public struct NotificationPayloadError: Error, Sendable, CustomStringConvertible {
    /// What is wrong.
    public var description: String
}

/// A URL that reached the app from outside, on its way to the router: modules that declare ``LifecycleEvent/Kind/openURL``
/// see it in boot order and may rewrite it or claim it.
public final class IncomingURL: Sendable {
    private struct State {
        var url: String
        var claimedBy: String?
        var rewrites: [(module: String, url: String)] = []
    }

    private let state: Locked<State>

    /// The URL as it arrived.
    public let original: String

    /// An incoming `url`.
    public init(_ url: String) {
        original = url
        state = Locked(State(url: url))
    }

    /// The URL as it stands now (after any rewrites).
    public var url: String { state.withLock { $0.url } }

    /// The module that claimed it, if one did: then nothing is routed.
    public var claimedBy: String? { state.withLock { $0.claimedBy } }

    /// Who rewrote it, and to what, in order.
    public var rewrites: [(module: String, url: String)] { state.withLock { $0.rewrites } }

    /// Takes the URL over for `module`: the router will not open it.
    public func claim(by module: String) {
        state.withLock { if $0.claimedBy == nil { $0.claimedBy = module } }
    }

    /// Replaces the URL with `url`, on behalf of `module`.
    public func rewrite(to url: String, by module: String) {
        state.withLock { state in
            state.url = url
            state.rewrites.append((module, url))
        }
    }
}
