public import Foundation

/// Documents the App serves from URLs (its remote configuration: a layout, say), each by name: the App
/// registers this service when it has any, and a module reads the current copy of its own when it builds
/// or refreshes what it shows.
public protocol RemoteDocuments: Sendable {
    /// The document's JSON as the App last took it (signed and checked) and where it came from; nil when none was served.
    func current(_ name: String) -> (json: Data, source: String)?
}
