import Crypto
public import Foundation

/// The publisher's Ed25519 private key: it signs manifests and feed indexes. Kept out of the repository;
/// the App carries only the public half (``TrustedKeys``).
public struct PluginSigningKey: Sendable {
    /// The raw key (kept as bytes: CryptoKit's key types are not Sendable).
    private let raw: Data
    private var key: Curve25519.Signing.PrivateKey {
        // `raw` came from a valid key, so this cannot fail.
        (try? Curve25519.Signing.PrivateKey(rawRepresentation: raw)) ?? Curve25519.Signing.PrivateKey()
    }

    /// A new random key.
    public init() { raw = Curve25519.Signing.PrivateKey().rawRepresentation }

    /// The key a key file holds (``fileContents``); throws naming the problem.
    public init(fileContents: String) throws {
        let lines = fileContents.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
        guard lines.first == Self.header, lines.count >= 2, let raw = Data(base64Encoded: lines[1]),
            (try? Curve25519.Signing.PrivateKey(rawRepresentation: raw)) != nil
        else {
            throw FeedError("That is no plugin signing key (it should start with '\(Self.header)'). Make one with 'componentctl plugin keygen'.")
        }
        self.raw = raw
    }

    static let header = "-- plugin signing key (Ed25519): keep it secret, never commit it --"

    /// The text of a key file.
    public var fileContents: String { Self.header + "\n" + key.rawRepresentation.base64EncodedString() + "\n" }

    /// The public half, as the App's configuration writes it.
    public var publicKey: String { key.publicKey.rawRepresentation.base64EncodedString() }

    /// The bare Ed25519 signature of `data` (64 bytes), for formats that carry it themselves (links).
    public func rawSignature(_ data: Data) throws -> Data {
        try key.signature(for: data)
    }

    /// The signature file of `data`.
    public func sign(_ data: Data) throws -> Data {
        let signature = try key.signature(for: data)
        return try FeedJSON.encode(SignatureFile(key: KeyID.of(key.publicKey.rawRepresentation), signature: signature.base64EncodedString()))
    }
}

/// A `.sig` file: which key signed, and the signature.
struct SignatureFile: Codable {
    var key: String
    var signature: String
}

/// A key's short id: the first 16 hex digits of its SHA-256.
public enum KeyID {
    /// The id of the raw public key `raw`.
    public static func of(_ raw: Data) -> String { String(Digest.sha256(raw).prefix(16)) }
}

/// The public keys an App trusts to sign its plugins.
public struct TrustedKeys: Sendable {
    private let keys: [String: Data]

    /// Reads base64 public keys; throws naming a bad one.
    public init(_ encoded: [String]) throws {
        var keys: [String: Data] = [:]
        for text in encoded {
            guard let raw = Data(base64Encoded: text), (try? Curve25519.Signing.PublicKey(rawRepresentation: raw)) != nil else {
                throw FeedError("'\(text)' is no Ed25519 public key (32 bytes in base64). Copy the line 'componentctl plugin keygen' printed.")
            }
            keys[KeyID.of(raw)] = raw
        }
        self.keys = keys
    }

    /// The ids of the keys.
    public var ids: [String] { keys.keys.sorted() }

    /// Whether `signature` (a `.sig` file's bytes) names a key this set holds; false for one it cannot read.
    public func holdsSigner(of signature: Data) -> Bool {
        guard let file = try? FeedJSON.decode(signature, what: "a signature") as SignatureFile else { return false }
        return keys[file.key] != nil
    }

    /// Checks that `signature` (a `.sig` file's bytes) is a trusted key's signature of `data`; `what` names it.
    public func verify(_ data: Data, signature: Data, what: String) throws {
        let file: SignatureFile = try FeedJSON.decode(signature, what: "the signature of \(what)")
        guard holds(file.key) else {
            let trusted = ids.isEmpty ? "no key" : ids.joined(separator: ", ")
            throw FeedError("\(what) is signed by the key \(file.key), which this app does not trust (it trusts \(trusted))")
        }
        guard let bytes = Data(base64Encoded: file.signature), isValid(bytes, of: data, by: file.key) else {
            throw FeedError("the signature of \(what) does not match its contents: it was changed after signing, or signed by someone else")
        }
    }

    /// Whether the key with id `id` is one of these.
    public func holds(_ id: String) -> Bool { keys[id] != nil }

    /// Whether `signature` is the Ed25519 signature of `data` by the trusted key `id`.
    public func isValid(_ signature: Data, of data: Data, by id: String) -> Bool {
        guard let raw = keys[id], let key = try? Curve25519.Signing.PublicKey(rawRepresentation: raw) else { return false }
        return key.isValidSignature(signature, for: data)
    }
}

/// The one check of everything the App takes from a server: a feed's index, a configuration file, a link.
/// A trusted key signed it, and it is no older than what the App has already taken from the same source.
public enum SignedDocument {
    /// Checks that a trusted key in `keys` signed `data` (`signature` is a `.sig` file's bytes) and that
    /// its `sequence` is not below `seen`, the highest taken from that source before; `what` names it.
    public static func verify(_ data: Data, signature: Data, keys: TrustedKeys, sequence: Int?, seen: Int?, what: String) throws {
        try keys.verify(data, signature: signature, what: what)
        try checkSequence(sequence, seen: seen, what: what)
    }

    /// Refuses a `sequence` below `seen`: an older copy replayed, or a source rolled back.
    public static func checkSequence(_ sequence: Int?, seen: Int?, what: String) throws {
        guard let seen else { return }
        guard let sequence, sequence >= seen else {
            throw FeedError(
                "\(what) is older (sequence \(sequence.map(String.init) ?? "none")) than one this App has already seen (sequence \(seen)): "
                    + "a replayed or rolled-back copy. Nothing was changed.")
        }
    }
}

/// SHA-256 in hex.
public enum Digest {
    /// The hex SHA-256 of `data`.
    public static func sha256(_ data: Data) -> String { hex(SHA256.hash(data: data)) }

    /// The hex SHA-256 of the file at `url`, read in chunks.
    public static func sha256(fileAt url: URL) throws -> String {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        var hasher = SHA256()
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty { hasher.update(data: chunk) }
        return hex(hasher.finalize())
    }

    private static func hex(_ digest: SHA256.Digest) -> String {
        // Written into one buffer: a key of every component is a digest, and a string a byte costs more than the hash.
        let digits = Array("0123456789abcdef".utf8)
        return String(unsafeUninitializedCapacity: SHA256.byteCount * 2) { buffer in
            for (position, byte) in digest.enumerated() {
                buffer[2 * position] = digits[Int(byte >> 4)]
                buffer[2 * position + 1] = digits[Int(byte & 0x0f)]
            }
            return SHA256.byteCount * 2
        }
    }
}
