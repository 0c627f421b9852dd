// Runs the Shelf component alone, with a stand-in for the reader's route.
import Routing
import Shelf

var registry = Registry()
try ShelfModule.register(in: &registry)
try registry.register("lib://book/<int:id>", owner: "shelf-demo")
print(ShelfModule.page().text)
