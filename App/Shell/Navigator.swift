import ScreenKit

/// The back stack of screens the user has opened.
///
/// Going back never opens the URL that made a screen again: it may have been an action
/// (`app://cart/add/1`) that must not run twice. The shell shows the screen's ``Screen/refreshURL``
/// instead, so the cart after a checkout is empty; a screen without one is shown as it was.
struct Navigator {
    private var stack: [Screen] = []

    /// The screen on top, if any.
    var current: Screen? { stack.last }

    /// Pushes a newly opened screen.
    mutating func push(_ screen: Screen) {
        stack.append(screen)
    }

    /// Replaces the top screen with a fresh rendering of it.
    mutating func replaceCurrent(with screen: Screen) {
        guard !stack.isEmpty else { return }
        stack[stack.count - 1] = screen
    }

    /// Pops the top screen and returns the one below it, or nil (and pops nothing) at the root.
    mutating func back() -> Screen? {
        guard stack.count > 1 else { return nil }
        stack.removeLast()
        return stack.last
    }
}
