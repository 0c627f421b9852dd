import Foundation

/// componentctl's exit codes, the one place they are defined.
public enum ExitStatus: Int32, Sendable {
    /// Success.
    case ok = 0
    /// The command ran and found something (layering violations, an out-of-date workspace).
    case findings = 1
    /// A usage or configuration error, or a refusal by the rules; the user changes the input.
    case usage = 2
    /// Git or the environment failed (a dirty tree, a moved tag, a stale lock, a failed write).
    case environment = 3
    /// A build or test failed.
    case buildFailed = 4
    /// Stopped by a hangup (SIGHUP), as a shell reports it: 128 + the signal's number.
    case hungUp = 129
    /// Stopped by an interrupt (SIGINT, Ctrl-C).
    case interrupted = 130
    /// Stopped by a request to terminate (SIGTERM, a CI runner cancelling).
    case terminated = 143

    /// Whether a request to stop componentctl ended the command: nothing after it may run.
    public var isStop: Bool { rawValue > 128 }

    /// The status of a command that `signal` stopped.
    static func stopped(_ signal: Int32) -> ExitStatus {
        switch signal {
        case SIGHUP: .hungUp
        case SIGINT: .interrupted
        default: .terminated
        }
    }

    /// The status an error ends the command with: its own when it is a ``ComponentctlError``, else an environment error.
    public init(of error: any Error) {
        self = (error as? any ComponentctlError)?.exitStatus ?? (error is DecodingError ? .usage : .environment)
    }
}

/// An error of componentctl: it knows the exit status it ends a command with.
public protocol ComponentctlError: Error, CustomStringConvertible {
    /// The exit status.
    var exitStatus: ExitStatus { get }
}

/// What a command prints and the exit status it ends with.
public struct CommandResult: Sendable, Equatable {
    /// Text for standard output.
    public var output: String
    /// Text for standard error.
    public var errors: String
    /// The exit status.
    public var status: ExitStatus

    /// Creates a result.
    public init(output: String = "", errors: String = "", status: ExitStatus = .ok) {
        self.output = output
        self.errors = errors
        self.status = status
    }
}

/// An error that says what went wrong and what to do, with its exit status.
public struct ToolError: ComponentctlError, Sendable {
    /// What went wrong and what to do.
    public var message: String
    /// The exit status.
    public var exitStatus: ExitStatus

    /// Creates an error.
    public init(_ message: String, status: ExitStatus) {
        self.message = message
        exitStatus = status
    }

    public var description: String { message }
}

extension WorkspaceError: ComponentctlError {
    /// Every workspace error is about the configuration.
    public var exitStatus: ExitStatus { .usage }
}

extension GitError: ComponentctlError {
    /// Git failed.
    public var exitStatus: ExitStatus { .environment }
}

extension ToolError {
    /// An error's message without Foundation's decoration: what failed, on which file.
    public static func describe(_ error: any Error) -> String {
        switch error {
        case let error as ToolError: error.message
        case let error as GitError: error.message.hasSuffix(".") ? error.message : error.message + "."
        case let error as CocoaError:
            "\((256..<512).contains(error.code.rawValue) ? "Cannot read" : "Cannot change") '\(error.filePath ?? "a file")': \(error.reason)."
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
