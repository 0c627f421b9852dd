public import Foundation

/// Where the home layout comes from when the App serves it from elsewhere (a URL it fetches at start and
/// on `foreground`): the App provides this service, Home reads it when it builds or refreshes its layout.
public protocol HomeLayoutSource: Sendable {
    /// The layout's JSON as it stands now and where it came from, or nil when the App has none.
    func currentLayout() -> (json: Data, source: String)?
}
