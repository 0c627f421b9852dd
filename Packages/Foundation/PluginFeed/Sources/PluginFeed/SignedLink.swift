import Crypto
public import Foundation

/// Signs app links for the outside world (push, e-mail, web pages) on the server's side, with the
/// publisher's Ed25519 private key: the App that checks them carries only public keys (``LinkVerifier``),
/// so nothing in it can mint a link.
///
/// A signed link is the original with `exp=<unix seconds>`, `once=<nonce>` for a link that opens once,
/// `kid=<key id>` and last `sig=<base64url signature of everything before it>` appended as query items;
/// anything changed, added or reordered before `sig` breaks the signature.
public struct LinkSigner: Sendable {
    private let key: PluginSigningKey
    private let clock: @Sendable () -> Date

    /// A signer with `key`; `clock` is injectable for tests.
    public init(key: PluginSigningKey, clock: @escaping @Sendable () -> Date = Date.init) {
        self.key = key
        self.clock = clock
    }

    /// `url` signed to stay valid for `lifetime` seconds; a `once` link carries a random nonce the App
    /// accepts a single time.
    public func sign(_ url: String, lifetime: TimeInterval, once: Bool = false) throws -> String {
        guard !url.contains("#") else { throw LinkSignatureError.fragment }
        let query = URLComponents(string: url)?.queryItems?.map(\.name) ?? []
        guard !query.contains(where: ["exp", "once", "kid", "sig"].contains) else { throw LinkSignatureError.signedAlready }
        let expiry = Int((clock().timeIntervalSince1970 + lifetime).rounded(.up))
        var message = url + (url.contains("?") ? "&" : "?") + "exp=\(expiry)"
        if once { message += "&once=" + (0..<16).map { _ in String(UInt8.random(in: 0...255), radix: 16).leftPadded(2) }.joined() }
        message += "&kid=" + KeyID.of(Data(base64Encoded: key.publicKey) ?? Data())
        return message + "&sig=" + LinkVerifier.base64URL(try key.rawSignature(Data(message.utf8)))
    }
}

/// What a valid link says about itself.
public struct LinkClaims: Sendable, Equatable {
    /// When it stops being valid.
    public var expiry: Date
    /// The nonce of a link that opens once (the App remembers it until `expiry`), or nil.
    public var once: String?

    /// Claims with these values.
    public init(expiry: Date, once: String?) {
        self.expiry = expiry
        self.once = once
    }
}

/// Checks links signed by ``LinkSigner`` against the public keys the App trusts: the signature (Ed25519,
/// by the key the link names), then the expiry. Replays of one-time links are the App's to refuse, with
/// the nonce this returns.
public struct LinkVerifier: Sendable {
    private let keys: TrustedKeys
    private let clock: @Sendable () -> Date

    /// A verifier trusting `keys`; `clock` is injectable for tests.
    public init(keys: TrustedKeys, clock: @escaping @Sendable () -> Date = Date.init) {
        self.keys = keys
        self.clock = clock
    }

    /// The claims of `url` when it carries a valid, unexpired signature; throws what is wrong otherwise.
    public func verify(_ url: String) throws -> LinkClaims {
        guard let separator = url.range(of: "&sig=", options: .backwards) else { throw LinkSignatureError.unsigned }
        let message = String(url[..<separator.lowerBound])
        let query = Self.query(of: message)
        guard let signature = Self.data(base64URL: url[separator.upperBound...]), let keyID = query["kid"], let expiryText = query["exp"],
            let expiry = TimeInterval(expiryText)
        else { throw LinkSignatureError.malformed }
        guard keys.holds(keyID) else { throw LinkSignatureError.unknownKey(keyID) }
        guard keys.isValid(signature, of: Data(message.utf8), by: keyID) else { throw LinkSignatureError.forged }
        guard clock().timeIntervalSince1970 < expiry else { throw LinkSignatureError.expired }
        return LinkClaims(expiry: Date(timeIntervalSince1970: expiry), once: query["once"])
    }

    /// The query items of `url` (the last of a repeated name wins: the signed ones come last).
    private static func query(of url: String) -> [String: String] {
        guard let start = url.firstIndex(of: "?") else { return [:] }
        var items: [String: String] = [:]
        for pair in url[url.index(after: start)...].split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { items[String(parts[0])] = String(parts[1]) }
        }
        return items
    }

    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    private static func data(base64URL text: Substring) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64)
    }
}

/// Why a link is refused.
public enum LinkSignatureError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No `sig=`.
    case unsigned
    /// A signature, key id or expiry that cannot be read.
    case malformed
    /// Signed by a key this App does not trust.
    case unknownKey(String)
    /// The signature does not match the link.
    case forged
    /// Past its expiry.
    case expired
    /// A one-time link opened before.
    case replayed
    /// A link to sign with a `#fragment` (it would not survive the trip).
    case fragment
    /// A link to sign that carries a signature's items already (`exp`, `once`, `kid` or `sig`).
    case signedAlready

    public var description: String {
        switch self {
        case .unsigned: "it carries no signature (sig=)"
        case .malformed: "its signature, key or expiry is malformed"
        case .unknownKey(let id): "it is signed by the key \(id), which this app does not trust"
        case .forged: "its signature does not match: the link was changed or signed with another key"
        case .expired: "it has expired"
        case .replayed: "it opens once, and it was opened before"
        case .fragment: "a link to sign has no #fragment"
        case .signedAlready: "it is signed already (it has exp=, once=, kid= or sig=): sign the link without them"
        }
    }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String { count >= width ? self : String(repeating: "0", count: width - count) + self }
}
