public import Router

/// A promotion for the home screen, announced on the app's bus by anything that has one (a campaign
/// plugin loaded at run time, say); Home lists those announced since launch, newest first, under its title.
public struct HomePromotion: AppEvent, Equatable {
    /// What the home screen says.
    public var title: String
    /// Where it leads.
    public var url: String

    /// Creates a promotion.
    public init(title: String, url: String) {
        self.title = title
        self.url = url
    }
}
