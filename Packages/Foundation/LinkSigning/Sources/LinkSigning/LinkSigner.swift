import Crypto
public import Foundation

/// Signs app links for the outside world (push, e-mail, web pages) and checks them when they come
/// back: HMAC-SHA256 over the whole link with an expiry, compared in constant time.
///
/// A signed link is the original with `exp=<unix seconds>` and then `sig=<hex>` appended as its last
/// query items; anything changed, added or reordered before `sig` breaks the signature.
public struct LinkSigner: Sendable {
    // Raw bytes: swift-crypto's SymmetricKey is not Sendable, so a key is made for each use.
    private let secret: [UInt8]
    private let clock: @Sendable () -> Date

    /// A signer with the secret `key` (at least 16 bytes); `clock` is injectable for tests.
    public init(key: String, clock: @escaping @Sendable () -> Date = Date.init) throws {
        guard key.utf8.count >= 16 else { throw LinkSignatureError.weakKey }
        self.secret = Array(key.utf8)
        self.clock = clock
    }

    /// `url` signed to stay valid for `lifetime` seconds.
    public func sign(_ url: String, lifetime: TimeInterval) throws -> String {
        guard !url.contains("#") else { throw LinkSignatureError.fragment }
        let expiry = Int((clock().timeIntervalSince1970 + lifetime).rounded(.up))
        let message = url + (url.contains("?") ? "&" : "?") + "exp=\(expiry)"
        return message + "&sig=" + hex(HMAC<SHA256>.authenticationCode(for: Data(message.utf8), using: SymmetricKey(data: secret)))
    }

    /// Throws what is wrong unless `url` carries a valid, unexpired signature.
    public func verify(_ url: String) throws {
        guard let separator = url.range(of: "&sig=", options: .backwards) else { throw LinkSignatureError.unsigned }
        let message = String(url[..<separator.lowerBound])
        let signatureHex = url[separator.upperBound...]
        guard let signature = bytes(fromHex: signatureHex), signature.count == SHA256.byteCount else { throw LinkSignatureError.malformed }
        // isValidAuthenticationCode compares in constant time.
        guard HMAC<SHA256>.isValidAuthenticationCode(signature, authenticating: Data(message.utf8), using: SymmetricKey(data: secret)) else {
            throw LinkSignatureError.forged
        }
        guard let expiryText = message.components(separatedBy: "exp=").last, let expiry = TimeInterval(expiryText) else {
            throw LinkSignatureError.malformed
        }
        guard clock().timeIntervalSince1970 < expiry else { throw LinkSignatureError.expired }
    }

    private func hex(_ code: some Sequence<UInt8>) -> String {
        code.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }

    private func bytes(fromHex text: Substring) -> [UInt8]? {
        guard text.count % 2 == 0 else { return nil }
        var result: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(index, offsetBy: 2)
            guard let byte = UInt8(text[index..<next], radix: 16) else { return nil }
            result.append(byte)
            index = next
        }
        return result
    }
}

/// Why a link is refused.
public enum LinkSignatureError: Error, Sendable, Equatable, CustomStringConvertible {
    case unsigned, malformed, forged, expired, weakKey, fragment

    public var description: String {
        switch self {
        case .unsigned: "it carries no signature (sig=)"
        case .malformed: "its signature or expiry is malformed"
        case .forged: "its signature does not match: the link was changed or signed with another key"
        case .expired: "it has expired"
        case .weakKey: "a signing key needs at least 16 bytes"
        case .fragment: "a link to sign has no #fragment"
        }
    }
}
