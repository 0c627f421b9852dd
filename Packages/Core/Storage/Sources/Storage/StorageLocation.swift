/// Where the app keeps its database: `$SHOP_DATA_DIR/shop.sqlite`, else `$XDG_DATA_HOME/shop/shop.sqlite`,
/// else `~/.local/share/shop/shop.sqlite`.
public enum StorageLocation {
    /// The variable that overrides the data folder (tests point it at a temporary folder).
    public static let overrideVariable = "SHOP_DATA_DIR"

    /// The database path for `environment`.
    public static func databasePath(environment: [String: String]) -> String {
        if let folder = environment[overrideVariable], !folder.isEmpty {
            return folder + "/shop.sqlite"
        }
        if let data = environment["XDG_DATA_HOME"], !data.isEmpty {
            return data + "/shop/shop.sqlite"
        }
        return (environment["HOME"] ?? ".") + "/.local/share/shop/shop.sqlite"
    }
}
