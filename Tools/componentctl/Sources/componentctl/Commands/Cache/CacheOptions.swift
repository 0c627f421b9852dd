import ArgumentParser
import ComponentKit
import Foundation

/// The results-cache options of `test`/`build` and `cached`.
struct CacheOptions: ParsableArguments {
    @Flag(help: "Run even what already passed with the same key.") var noCache = false
    @Option(
        help: ArgumentHelp(
            "Where passed results are remembered: a folder, or the http(s):// URL of a Bazel remote cache (default: COMPONENTCTL_CACHE, else the user's cache folder).",
            valueName: "folder-or-url")) var cache: String?
    @Flag(help: "Take passed results from the cache but record none (COMPONENTCTL_CACHE_READ_ONLY=1).") var cacheReadOnly = false

    func validate() throws {
        if noCache && (cache != nil || cacheReadOnly) { throw ValidationError("--no-cache uses no cache: drop --cache and --cache-read-only") }
    }

    /// The cache these options and `environment` name, nil with `--no-cache` or `off`; its warnings go to standard error.
    func cache(environment: [String: String]) throws -> ResultsCache? {
        guard !noCache else { return nil }
        return try ResultsCache.configured(location: cache, readOnly: cacheReadOnly, environment: environment, warn: Self.warn)
    }

    private static func warn(_ warning: String) {
        FileHandle.standardError.write(Data("warning: \(warning)\n".utf8))
    }
}
