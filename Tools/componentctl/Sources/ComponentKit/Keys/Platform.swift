import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The platform a build's result depends on, in one line: the operating system and its version, the C
/// library, the machine.
enum Platform {
    static func description() -> String {
        var names = utsname()
        uname(&names)
        let machine = withUnsafeBytes(of: names.machine) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let system = withUnsafeBytes(of: names.sysname) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }.lowercased()
        var parts = [system]
        if let release = try? String(contentsOfFile: "/etc/os-release", encoding: .utf8) {
            let fields = Dictionary(
                release.split(separator: "\n").compactMap { line -> (String, String)? in
                    guard let equals = line.firstIndex(of: "=") else { return nil }
                    return (String(line[..<equals]), line[line.index(after: equals)...].trimmingCharacters(in: CharacterSet(charactersIn: "\"")))
                }, uniquingKeysWith: { a, _ in a })
            parts += [fields["ID"] ?? "unknown", fields["VERSION_ID"] ?? "rolling"]
        }
        #if canImport(Glibc)
        // "glibc 2.36": the C library every Swift binary links.
        var buffer = [CChar](repeating: 0, count: 64)
        if confstr(Int32(_CS_GNU_LIBC_VERSION), &buffer, buffer.count) > 0 {
            parts.append(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        #endif
        return (parts + [machine]).joined(separator: " ")
    }
}
