import Foundation
import LinkSigning
import Synchronization
import Testing

private final class TestClock: Sendable {
    let time = Mutex(Date(timeIntervalSince1970: 1_000_000))
}

@Suite struct LinkSignerTests {
    private let clock = TestClock()

    private func signer(_ key: String = "a-very-secret-key") throws -> LinkSigner {
        let clock = self.clock
        return try LinkSigner(key: key) { clock.time.withLock { $0 } }
    }

    @Test func signedLinksVerifyUntilTheyExpire() throws {
        let signed = try signer().sign("shop://product/7?ref=mail", lifetime: 60)
        #expect(signed.hasPrefix("shop://product/7?ref=mail&exp=1000060&sig="))
        try signer().verify(signed)
        try signer().verify(try signer().sign("shop://product/7", lifetime: 60))
        clock.time.withLock { $0 = Date(timeIntervalSince1970: 1_000_060) }
        #expect(throws: LinkSignatureError.expired) { try signer().verify(signed) }
    }

    @Test func anyChangeOrAnotherKeyIsRefused() throws {
        let signed = try signer().sign("shop://product/7", lifetime: 60)
        #expect(throws: LinkSignatureError.forged) { try signer().verify(signed.replacingOccurrences(of: "product/7", with: "product/8")) }
        #expect(throws: LinkSignatureError.forged) { try signer().verify(signed.replacingOccurrences(of: "exp=1000060", with: "exp=9000060")) }
        #expect(throws: LinkSignatureError.forged) { try signer("another-secret-key").verify(signed) }
        #expect(throws: LinkSignatureError.unsigned) { try signer().verify("shop://product/7") }
        #expect(throws: LinkSignatureError.malformed) { try signer().verify("shop://product/7?exp=1&sig=zz") }
        #expect(throws: LinkSignatureError.weakKey) { try signer("short") }
    }
}
