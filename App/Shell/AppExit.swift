/// How an app's run ends: the one definition of its exit statuses. An interrupt ends it with 128 plus the
/// signal's number instead, as a shell reports a killed process.
public enum AppExit: Int32, Sendable {
    /// It did what was asked.
    case ok = 0
    /// A screen failed at run time, or a change was refused.
    case failed = 1
    /// A usage error, a URL that cannot be parsed, or a configuration the app cannot start with.
    case usage = 2
}
