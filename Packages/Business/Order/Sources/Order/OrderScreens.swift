import CartInterface
import Foundation
import Models
import OrderInterface
import ProductInterface
import Router
import ScreenKit
import UserInterface

/// The screens of the Order component.
enum OrderScreens {
    static func signInFirst(to route: some Route, _ purpose: String) throws -> Screen {
        var screen = Screen(title: "Orders")
        screen.text("Sign in to \(purpose).")
        screen.link("Sign in", try UserRoute.Login(next: try route.url()).url())
        return screen
    }

    static func list(_ orders: [OrderSummary], for user: UserAccount) throws -> Screen {
        var screen = Screen(title: "Orders of \(user.displayName)", refreshURL: try OrderRoute.List().url())
        if orders.isEmpty { screen.text("No orders yet.") }
        for order in orders {
            let units = order.lines.reduce(0) { $0 + $1.quantity }
            screen.link("Order \(order.id): \(units) item\(units == 1 ? "" : "s"), \(order.total)", try OrderRoute.Detail(id: order.id).url())
        }
        screen.link("Continue shopping", try ProductRoute.List().url())
        return screen
    }

    static func detail(_ order: OrderSummary?, id: Int, notice: String? = nil) throws -> Screen {
        guard let order else {
            var screen = Screen(title: "Order not found")
            screen.text("You have no order number \(id).")
            screen.link("My orders", try OrderRoute.List().url())
            return screen
        }
        var screen = Screen(title: "Order \(order.id)", refreshURL: try OrderRoute.Detail(id: order.id).url())
        if let notice { screen.text(notice) }
        screen.text("Placed \(order.placedAt.formatted(.iso8601.year().month().day()))")
        for line in order.lines {
            screen.link("\(line.quantity) × \(line.name) @ \(line.unitPrice)", try ProductRoute.Detail(id: line.productID).url())
        }
        screen.text("Total: \(order.total)")
        screen.link("My orders", try OrderRoute.List().url())
        return screen
    }

    static func review(_ lines: [CartLine], for user: UserAccount) throws -> Screen {
        var screen = Screen(title: "Review your order", refreshURL: try OrderRoute.Checkout().url())
        screen.text("Ordering as \(user.displayName):")
        for line in lines {
            screen.text("\(line.quantity) × \(line.name) @ \(line.unitPrice) = \(line.total)")
        }
        screen.text("Total: \(lines.map(\.total).totalsDescription)")
        screen.link("Place order", try OrderRoute.Place().url())
        screen.link("Change the cart", try CartRoute.Show().url())
        return screen
    }

    static func emptyCart() throws -> Screen {
        var screen = Screen(title: "Checkout")
        screen.text("Your cart is empty: nothing to order.")
        screen.link("Browse products", try ProductRoute.List().url())
        return screen
    }
}
