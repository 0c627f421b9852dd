import Foundation
import Synchronization
import Testing
import TestSupport

@testable import ComponentKit

#if canImport(Glibc)
import Glibc
#endif

/// A remote results cache that answers too slowly is given up at the store's deadline, whole: a server that
/// trickles its answer a byte at a time is as good as silent.
@Suite struct HTTPStoreTests {
    @Test(arguments: [MisbehavingServer.Behaviour.silent, .trickling])
    func aMisbehavingServerIsGivenUpAtTheDeadline(_ behaviour: MisbehavingServer.Behaviour) throws {
        let server = try MisbehavingServer(behaviour)
        defer { server.stop() }
        let store = HTTPStore(base: try #require(URL(string: "http://127.0.0.1:\(server.port)/cache")), timeout: 1)
        let error = try #require(throws: StoreError.self) { try store.get("ac/0000") }
        #expect(error.unreachable)
        #expect(error.description.contains("no whole answer within 1 s"), "\(error)")
    }

    /// A store slow on every request, though within its timeout, is given up once the run's budget is spent.
    @Test func aStoreSlowInTotalIsGivenUpForTheRun() throws {
        final class SlowStore: ResultsStore {
            let asked = Mutex(0)
            var location: String { "slow" }
            func get(_ path: String) throws -> [UInt8]? {
                asked.withLock { $0 += 1 }
                Thread.sleep(forTimeInterval: 0.2)
                return nil
            }
            func put(_ path: String, _ bytes: [UInt8]) throws { _ = try get(path) }
        }
        let store = SlowStore()
        let warnings = Mutex<[String]>([])
        let cache = ResultsCache(store: store, readOnly: false, budget: 0.5) { warning in warnings.withLock { $0.append(warning) } }
        for index in 0..<10 { #expect(cache.passed("key\(index)", action: "test") == nil) }
        cache.record(PassedResult(job: "a", action: "test", key: "key", seconds: 1))
        #expect((1...3).contains(store.asked.withLock { $0 }), "asked until 0.5 s were spent, then no more")
        #expect(warnings.withLock { $0 }.count == 1)
        #expect(warnings.withLock { $0 }.first?.contains("in this run, more than its 0.5 s; it is not asked again, and every job runs") == true)
    }

    /// A redirect is not followed: it would carry the credentials to another host, and drop a PUT's body.
    @Test func aRedirectIsReportedNotFollowed() throws {
        let server = try MisbehavingServer(.redirecting)
        defer { server.stop() }
        let store = HTTPStore(base: try #require(URL(string: "http://user:secret@127.0.0.1:\(server.port)/cache")), timeout: 5)
        let read = try #require(throws: StoreError.self) { try store.get("ac/0000") }
        #expect(read.description.contains("answered 307, a redirect, which componentctl does not follow"), "\(read)")
        let write = try #require(throws: StoreError.self) { try store.put("cas/0000", Array("record".utf8)) }
        #expect(write.description.contains("answered 307"), "\(write)")
        #expect(!read.description.contains("secret"))
    }
}

/// A loopback HTTP server that never finishes an answer (it says nothing, or sends headers and then a
/// byte every 100 ms), or that redirects every request elsewhere.
final class MisbehavingServer: @unchecked Sendable {
    enum Behaviour: Sendable { case silent, trickling, redirecting }
    let port: UInt16
    private let socket: Int32

    init(_ behaviour: Behaviour) throws {
        let (listening, port) = try CacheServer.loopbackSocket()
        guard listen(listening, 8) == 0 else {
            close(listening)
            throw POSIXError(.EADDRINUSE)
        }
        socket = listening
        self.port = UInt16(port)
        Thread.detachNewThread {
            while true {
                let client = accept(listening, nil, nil)
                guard client >= 0 else { return }
                Thread.detachNewThread {
                    defer { close(client) }
                    if behaviour == .redirecting {
                        let answer = "HTTP/1.1 307 Temporary Redirect\r\nLocation: http://localhost:1/elsewhere\r\nContent-Length: 0\r\n\r\n"
                        _ = send(client, answer, answer.utf8.count, Int32(MSG_NOSIGNAL))
                        var buffer = [UInt8](repeating: 0, count: 4096)
                        _ = recv(client, &buffer, buffer.count, 0)
                        return
                    }
                    guard behaviour == .trickling else {
                        sleep(30)
                        return
                    }
                    let head = "HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n"
                    guard send(client, head, head.utf8.count, Int32(MSG_NOSIGNAL)) > 0 else { return }
                    for _ in 0..<300 {
                        guard send(client, "x", 1, Int32(MSG_NOSIGNAL)) == 1 else { return }
                        usleep(100_000)
                    }
                }
            }
        }
    }

    func stop() {
        shutdown(socket, Int32(SHUT_RDWR))
        close(socket)
    }
}
