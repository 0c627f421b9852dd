import Foundation

/// What a command prints and the exit code it ends with.
public struct CommandResult: Sendable, Equatable {
    /// Text for standard output.
    public var output: String
    /// Text for standard error.
    public var errors: String
    /// The exit code: 0 ok, 1 findings, 2 usage or configuration, 3 git or environment, 4 build or test.
    public var exitCode: Int32

    /// Creates a result.
    public init(output: String = "", errors: String = "", exitCode: Int32 = 0) {
        self.output = output
        self.errors = errors
        self.exitCode = exitCode
    }
}

/// An error that carries its exit code.
public struct ToolError: Error, Sendable, CustomStringConvertible {
    /// What went wrong and what to do.
    public var message: String
    /// The exit code: 2 usage or configuration, 3 git or environment, 4 build or test.
    public var exitCode: Int32

    /// Creates an error.
    public init(_ message: String, exitCode: Int32) {
        self.message = message
        self.exitCode = exitCode
    }

    public var description: String { message }

    /// The exit code for any error: ``ToolError``'s own, 2 for configuration problems, else 3.
    public static func exitCode(for error: any Error) -> Int32 {
        switch error {
        case let error as ToolError: error.exitCode
        case is WorkspaceError: 2
        case is DecodingError: 2
        default: 3
        }
    }
}

extension ToolError {
    /// An error's message without Foundation's decoration: what failed, on which file.
    public static func describe(_ error: any Error) -> String {
        switch error {
        case let error as ToolError: error.message
        case let error as GitError: error.message.hasSuffix(".") ? error.message : error.message + "."
        case let error as CocoaError:
            "Cannot change '\(error.filePath ?? "a file")': \(error.reason)."
        case is DecodingError: "The data cannot be read: \(JSONOutput.summary(of: error))."
        default: "\(error)"
        }
    }
}

extension CocoaError {
    fileprivate var filePath: String? { (userInfo[NSFilePathErrorKey] as? String) ?? (userInfo[NSURLErrorKey] as? URL)?.path }
    /// The system's own words for the cause ("Operation not permitted"), not Foundation's wrapping of them.
    fileprivate var reason: String {
        if let underlying = userInfo[NSUnderlyingErrorKey] as? any Error {
            let error = underlying as NSError
            return error.domain == NSPOSIXErrorDomain ? String(cString: strerror(Int32(error.code))) : error.localizedDescription
        }
        switch code {
        case .fileWriteNoPermission, .fileReadNoPermission: return "permission denied"
        case .fileWriteOutOfSpace: return "the disk is full"
        case .fileWriteVolumeReadOnly: return "the file system is read-only"
        case .fileNoSuchFile, .fileReadNoSuchFile: return "no such file"
        case .fileWriteFileExists: return "something is in the way"
        default: return "the file system refused (\(code.rawValue))"
        }
    }
}
