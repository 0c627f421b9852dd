import Foundation
import PluginFeed
import Synchronization
import Testing

private final class TestClock: Sendable {
    let time = Mutex(Date(timeIntervalSince1970: 1_000_000))
    var now: Date { time.withLock { $0 } }
}

@Suite struct SignedLinkTests {
    private let clock = TestClock()
    private let key = PluginSigningKey()

    private func signer(_ key: PluginSigningKey? = nil) -> LinkSigner {
        let clock = self.clock
        return LinkSigner(key: key ?? self.key) { clock.now }
    }

    private func verifier(trusting keys: [PluginSigningKey]? = nil) throws -> LinkVerifier {
        let clock = self.clock
        return LinkVerifier(keys: try TrustedKeys((keys ?? [key]).map(\.publicKey))) { clock.now }
    }

    @Test func signedLinksVerifyWithThePublicKeyUntilTheyExpire() throws {
        let signed = try signer().sign("myapp://product/7?ref=mail", lifetime: 60)
        #expect(signed.hasPrefix("myapp://product/7?ref=mail&exp=1000060&kid="))
        #expect(try verifier().verify(signed) == LinkClaims(expiry: Date(timeIntervalSince1970: 1_000_060), once: nil))
        _ = try verifier().verify(try signer().sign("myapp://product/7", lifetime: 60))
        clock.time.withLock { $0 = Date(timeIntervalSince1970: 1_000_060) }
        #expect(throws: LinkSignatureError.expired) { try verifier().verify(signed) }
    }

    @Test func aOneTimeLinkCarriesANonceEachTime() throws {
        let first = try verifier().verify(try signer().sign("myapp://cart", lifetime: 60, once: true))
        let second = try verifier().verify(try signer().sign("myapp://cart", lifetime: 60, once: true))
        #expect(first.once?.count == 32)
        #expect(first.once != second.once)
    }

    @Test func anyChangeAnotherKeyOrGarbageIsRefused() throws {
        let signed = try signer().sign("myapp://product/7", lifetime: 60)
        #expect(throws: LinkSignatureError.forged) { try verifier().verify(signed.replacingOccurrences(of: "product/7", with: "product/8")) }
        #expect(throws: LinkSignatureError.forged) { try verifier().verify(signed.replacingOccurrences(of: "exp=1000060", with: "exp=9000060")) }
        let other = PluginSigningKey()
        let foreign = try signer(other).sign("myapp://product/7", lifetime: 60)
        #expect(throws: LinkSignatureError.self) { try verifier().verify(foreign) }
        #expect((try? verifier(trusting: [other, key]).verify(foreign)) != nil, "a second trusted key verifies its own links")
        // A link whose key id names a trusted key but whose signature is another key's.
        let swapped = foreign.replacingOccurrences(
            of: "kid=" + KeyID.of(Data(base64Encoded: other.publicKey) ?? Data()), with: "kid=" + KeyID.of(Data(base64Encoded: key.publicKey) ?? Data()))
        #expect(throws: LinkSignatureError.forged) { try verifier().verify(swapped) }
        #expect(throws: LinkSignatureError.unsigned) { try verifier().verify("myapp://product/7") }
        #expect(throws: LinkSignatureError.malformed) { try verifier().verify("myapp://product/7?exp=1&sig=zz") }
        #expect(throws: LinkSignatureError.fragment) { try signer().sign("myapp://product/7#top", lifetime: 60) }
        let signedOnce = try signer().sign("myapp://product/7?tab=new", lifetime: 60)
        #expect(throws: LinkSignatureError.signedAlready) { try signer().sign(signedOnce, lifetime: 60) }
        #expect(throws: LinkSignatureError.signedAlready) { try signer().sign("myapp://product/7?sig=x", lifetime: 60) }
        #expect(try signer().sign("myapp://product/7?signature=x&expires=1", lifetime: 60).contains("&exp="), "other names are the link's own")
    }
}
