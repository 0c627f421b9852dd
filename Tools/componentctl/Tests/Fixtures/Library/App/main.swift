import Reader
import Shelf

print(ShelfModule.page().text)
print(ReaderModule.page(for: .init(1)).text)
