public import Foundation

/// A real nginx on loopback serving a Bazel HTTP remote cache (WebDAV PUT enabled) under `/cache/`, an
/// always-failing one under `/broken/`, and a GET-only one under `/readonly/`; started by a test and
/// stopped by it. Its requests are logged, so a test sees what the tool sent.
public final class CacheServer {
    /// The folder it serves and logs into.
    public let folder: URL
    /// Its port on 127.0.0.1.
    public let port: Int
    private let process: Process

    /// The URL of one of its locations (`cache`, `broken`, `readonly`).
    public func url(_ location: String = "cache") -> String { "http://127.0.0.1:\(port)/\(location)" }

    /// The requests it answered so far, as "METHOD PATH STATUS".
    public var requests: [String] {
        let log = (try? String(contentsOf: folder.appendingPathComponent("access.log"), encoding: .utf8)) ?? ""
        return log.split(separator: "\n").map(String.init)
    }

    /// Starts nginx; throws when it is not installed (scripts/setup.sh installs it) or does not come up.
    public init() throws {
        guard let nginx = ["/usr/sbin/nginx", "/usr/local/sbin/nginx", "/usr/bin/nginx"].first(where: FileManager.default.isExecutableFile) else {
            throw ServerError("nginx is not installed: run scripts/setup.sh (it installs nginx-light)")
        }
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("cache-server-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("store/cache"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("store/readonly"), withIntermediateDirectories: true)
        port = try Self.freePort()
        let path = folder.path
        let config = """
            daemon off;
            master_process off;
            pid \(path)/nginx.pid;
            error_log \(path)/error.log;
            events { worker_connections 64; }
            http {
                log_format requests '$request_method $uri $status';
                access_log \(path)/access.log requests;
                client_body_temp_path \(path)/body;
                proxy_temp_path \(path)/proxy;
                fastcgi_temp_path \(path)/fastcgi;
                uwsgi_temp_path \(path)/uwsgi;
                scgi_temp_path \(path)/scgi;
                server {
                    listen 127.0.0.1:\(port);
                    root \(path)/store;
                    location /cache/ { dav_methods PUT; create_full_put_path on; client_max_body_size 64m; }
                    location /readonly/ { limit_except GET { deny all; } }
                    location /broken/ { return 500; }
                }
            }
            """
        try Data(config.utf8).write(to: folder.appendingPathComponent("nginx.conf"))
        process = Process()
        process.executableURL = URL(fileURLWithPath: nginx)
        process.arguments = ["-p", path, "-c", folder.appendingPathComponent("nginx.conf").path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(10)
        while !Self.accepts(port) {
            guard process.isRunning, Date() < deadline else {
                stop()
                throw ServerError("nginx did not start: \((try? String(contentsOf: folder.appendingPathComponent("error.log"), encoding: .utf8)) ?? "")")
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    /// Stops nginx.
    public func stop() {
        guard process.isRunning else { return }
        // SIGKILL: a child of the test runner may inherit a signal mask that blocks SIGTERM.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    deinit { stop() }

    /// A port nothing listens on now.
    public static func freePort() throws -> Int {
        let (socket, port) = try loopbackSocket()
        close(socket)
        return port
    }

    /// A TCP socket bound to a free port of 127.0.0.1, and the port; the caller closes it.
    public static func loopbackSocket() throws -> (socket: Int32, port: Int) {
        let socket = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0 }
        }
        guard bound else {
            close(socket)
            throw ServerError("cannot find a free port")
        }
        return (socket, Int(UInt16(bigEndian: address.sin_port)))
    }

    private static func accepts(_ port: Int) -> Bool {
        let socket = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }
}

/// A test server that could not be started.
public struct ServerError: Error, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}
