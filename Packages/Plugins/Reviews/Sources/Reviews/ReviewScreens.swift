import ProductInterface
import ScreenKit

/// The screens and text of the reviews plugin.
enum ReviewScreens {
    static func saved(_ review: Review) throws -> Screen {
        var screen = Screen(title: "Review saved")
        screen.text("Thank you: \(stars(Double(review.rating))) for product \(review.productID).")
        screen.link("Back to the product", try ProductRoute.Detail(id: review.productID).url())
        return screen
    }

    /// `rating` as five stars, rounded to whole ones.
    static func stars(_ rating: Double) -> String {
        let full = min(5, max(0, Int(rating.rounded())))
        return String(repeating: "★", count: full) + String(repeating: "☆", count: 5 - full)
    }
}
