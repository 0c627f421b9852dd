/// Where an app keeps its database: `<folder>/<name>.sqlite` when a folder is given (a setting of the app),
/// else `$XDG_DATA_HOME/<name>/<name>.sqlite`, else `~/.local/share/<name>/<name>.sqlite`.
public enum StorageLocation {
    /// The database path of the app whose data folder is called `name`, `dataFolder` overriding it.
    public static func databasePath(dataFolder: String?, named name: String, environment: [String: String]) -> String {
        if let dataFolder, !dataFolder.isEmpty {
            return dataFolder + "/\(name).sqlite"
        }
        if let data = environment["XDG_DATA_HOME"], !data.isEmpty {
            return data + "/\(name)/\(name).sqlite"
        }
        return (environment["HOME"] ?? ".") + "/.local/share/\(name)/\(name).sqlite"
    }
}
