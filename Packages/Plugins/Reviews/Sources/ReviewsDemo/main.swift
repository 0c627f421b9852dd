// Runs the reviews plugin alone, in a stand-in product page: its section, a review written through its
// route, and the section again. The database is a throw-away one unless SHOP_DATA_DIR names a folder.
import Foundation
import ProductInterfaceTestSupport
import Reviews
import Router
import ScreenKit
import Storage

let folder = FileManager.default.temporaryDirectory.appendingPathComponent("reviews-demo-\(ProcessInfo.processInfo.processIdentifier)")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: folder) }
let environment = ProcessInfo.processInfo.environment
let path = StorageLocation.databasePath(dataFolder: environment["SHOP_DATA_DIR"] ?? folder.path, named: "shop", environment: environment)
let harness = ProductPageHarness()
try harness.router.services.register(Storage.self, owner: "demo", instance: try Storage(path: path))
try harness.install([ReviewsPlugin.self])
let page = harness.page()
let renderer = TextRenderer(showsURLs: true)
print(renderer.render(try await harness.render(page, productID: 1)))
let arguments = CommandLine.arguments.dropFirst()
for url in arguments.isEmpty ? ["shop://product/1/reviews/new?rating=4&text=Sturdy%20and%20warm&by=Demo"] : Array(arguments) {
    print("\n> \(url)")
    print(renderer.render(try await harness.router.open(url, as: Screen.self)))
}
print()
print(renderer.render(try await harness.render(page, productID: 1)))
