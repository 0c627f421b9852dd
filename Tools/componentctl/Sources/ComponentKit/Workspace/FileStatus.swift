public import Foundation

/// What is at a path, looked at without following a link there (`lstat`): what the tool must know
/// before it removes or replaces anything.
public enum FileStatus {
    /// Whether something (a file, folder or link, even a dangling one) is at `url`.
    public static func exists(_ url: URL) -> Bool {
        var status = stat()
        return lstat(url.path, &status) == 0
    }

    /// Whether `url` is a folder itself, not a link to one.
    public static func isRealFolder(_ url: URL) -> Bool {
        var status = stat()
        return lstat(url.path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR
    }
}
