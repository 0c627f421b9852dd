import ScreenKit

/// The back stack of screens the user has opened.
///
/// Going back shows the screen as it was, without opening its URL again: the URL may have been
/// an action (`shop://cart/add/1`) that must not run twice.
struct Navigator {
    private var stack: [Screen] = []

    /// The screen on top, if any.
    var current: Screen? { stack.last }

    /// Pushes a newly opened screen.
    mutating func push(_ screen: Screen) {
        stack.append(screen)
    }

    /// Pops the top screen and returns the one below it, or nil (and pops nothing) at the root.
    mutating func back() -> Screen? {
        guard stack.count > 1 else { return nil }
        stack.removeLast()
        return stack.last
    }
}
