import Foundation
import Testing
import TestSupport

@testable import ComponentKit

#if canImport(Glibc)
import Glibc
#endif

/// A remote results cache that answers too slowly is given up at the store's deadline, whole: a server that
/// trickles its answer a byte at a time is as good as silent.
@Suite struct HTTPStoreTests {
    @Test(arguments: [SlowServer.Behaviour.silent, .trickling])
    func aSlowServerIsGivenUpAtTheDeadline(_ behaviour: SlowServer.Behaviour) throws {
        let server = try SlowServer(behaviour)
        defer { server.stop() }
        let store = HTTPStore(base: try #require(URL(string: "http://127.0.0.1:\(server.port)/cache")), timeout: 1)
        let error = try #require(throws: StoreError.self) { try store.get("ac/0000") }
        #expect(error.unreachable)
        #expect(error.description.contains("no whole answer within 1 s"), "\(error)")
    }
}

/// A loopback HTTP server that never finishes an answer: it says nothing, or sends headers and then a
/// byte every 100 ms.
final class SlowServer: @unchecked Sendable {
    enum Behaviour: Sendable { case silent, trickling }
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
