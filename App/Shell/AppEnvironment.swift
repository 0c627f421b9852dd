import Foundation
import PluginFeed
import Router
import Storage

/// The App's settings from its environment, all read here: each is a variable of the workspace's
/// prefix (components.yaml's `workspace.settings-prefix`; `NOTES_DATA_DIR` in a workspace named Notes).
struct AppEnvironment: Sendable {
    /// A setting the shell reads, by its name after the prefix.
    enum Setting: String, CaseIterable, Sendable {
        case dataFolder = "DATA_DIR"
        case log = "LOG"
        case profile = "PROFILE"
        case failModule = "FAIL_MODULE"
        case linkKeys = "LINK_KEYS"
        case linkSigningKey = "LINK_SIGNING_KEY"
        case webFallback = "WEB_FALLBACK"
        case degradeTable = "DEGRADE_TABLE"
        case remoteConfig = "REMOTE_CONFIG"
        case pluginFeed = "PLUGIN_FEED"
        case pluginConfig = "PLUGIN_CONFIG"
        case pluginTimeout = "PLUGIN_TIMEOUT"
        case pluginKillAt = "PLUGIN_KILL_AT"
    }

    /// Every variable of the process (the modules read theirs from it too).
    let values: [String: String]
    /// What the shell's variables start with, without the underscore.
    let prefix: String
    /// The data folder's name under `$XDG_DATA_HOME` or `~/.local/share`.
    let dataFolderName: String

    init(_ values: [String: String], app: AppDefinition) {
        self.values = values
        prefix = app.settingsPrefix
        dataFolderName = app.dataFolder
    }

    /// The variable of `setting`: `NOTES_LOG`.
    func name(_ setting: Setting) -> String { "\(prefix)_\(setting.rawValue)" }

    /// The value of `setting`; nil when it is not set or empty.
    subscript(_ setting: Setting) -> String? { values[name(setting)].flatMap { $0.isEmpty ? nil : $0 } }

    /// The variable that replaces the URL of the remote document `document`: `NOTES_HOME_LAYOUT_URL`.
    func urlName(ofDocument document: String) -> String { "\(prefix)_\(document.uppercased().replacingOccurrences(of: "-", with: "_"))_URL" }

    /// The documents whose URL a variable sets (`NOTES_HOME_LAYOUT_URL`: `home-layout`), whether or not the
    /// remote configuration file names them.
    var documentsWithURLs: [String] {
        values.keys.compactMap { key in
            guard key.hasPrefix(prefix + "_"), key.hasSuffix("_URL") else { return nil }
            let name = key.dropFirst(prefix.count + 1).dropLast(4).lowercased().replacingOccurrences(of: "_", with: "-")
            return name.range(of: "^[a-z0-9]+(-[a-z0-9]+)*$", options: .regularExpression) != nil ? name : nil
        }
    }

    /// Where the database lives: in the folder DATA_DIR names, else in the data folder of the user's data home.
    var databasePath: String { StorageLocation.databasePath(dataFolder: self[.dataFolder], named: dataFolderName, environment: values) }
}

/// What the settings give the shell: keys, the signer, the modules' settings, the degrade table.
extension AppEnvironment {
    /// The public keys external links must be signed with: LINK_KEYS (base64 keys, comma-separated),
    /// else the bundled link-keys.json (`{"keys": [...]}`). None: every external link is refused.
    func linkKeys() throws -> TrustedKeys {
        if let keys = self[.linkKeys] {
            return try TrustedKeys(keys.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
        }
        struct File: Decodable { var keys: [String] }
        guard let bundled = Bundle.module.url(forResource: "link-keys", withExtension: "json"), let data = FileManager.default.contents(atPath: bundled.path)
        else { throw AppSettingError("the bundled link-keys.json is missing from the build") }
        return try TrustedKeys((try FeedJSON.decode(data, what: "link-keys.json") as File).keys)
    }

    /// The private key links are signed with by `App sign`: the file `--key` or LINK_SIGNING_KEY names
    /// (a key from `componentctl plugin keygen`). The App itself carries no private key.
    func linkSigner(keyFile: String?) throws -> LinkSigner {
        guard let path = keyFile ?? self[.linkSigningKey] else {
            throw AppSettingError(
                "signing a link needs the private key: --key FILE or \(name(.linkSigningKey)) (make one with 'componentctl plugin keygen')")
        }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { throw AppSettingError("the signing key \(path) cannot be read") }
        return LinkSigner(key: try PluginSigningKey(fileContents: text))
    }

    /// What the modules read: the app's settings, each replaced by an environment variable of its name.
    func moduleSettings(_ app: AppDefinition) -> [String: String] {
        app.settings.merging(values) { _, environment in environment }
    }

    /// The degrade table and where it came from: the file named by DEGRADE_TABLE (a path or file:// URL),
    /// else the last good copy of the one served from a URL, else the app's own, else the bundled one.
    func degradeTable(_ app: AppDefinition, remote: RemoteConfiguration?) throws -> (DegradeTable, String) {
        if let source = self[.degradeTable] {
            let url = source.hasPrefix("file://") ? URL(string: source) : URL(fileURLWithPath: source)
            guard let url, let data = try? Data(contentsOf: url) else {
                throw DegradeTableError(source: source, reason: "it cannot be read (\(name(.degradeTable)) takes a file path or a file:// URL)")
            }
            return (try DegradeTable.decode(data, source: source), source)
        }
        // A kept copy was checked when it was taken; one that no longer decodes (another App version) is passed over.
        if let served = remote?.current(RemoteConfiguration.degradeTable), let table = try? DegradeTable.decode(served.json, source: served.source) {
            return (table, served.source)
        }
        if let table = app.degradeTable {
            let source = "the degrade table of app '\(app.name)'"
            return (try DegradeTable.decode(Data(table.utf8), source: source), source)
        }
        guard let bundled = Bundle.module.url(forResource: "degrade", withExtension: "json") else {
            throw DegradeTableError(source: "degrade.json", reason: "the bundled table is missing from the build")
        }
        return (try DegradeTable.decode(try Data(contentsOf: bundled), source: bundled.path), bundled.path)
    }
}
