/// A command's arguments split into options and positional words, the way other command-line tools
/// take them: `--name VALUE` or `--name=VALUE`, anywhere among the positional words.
struct CommandOptions {
    /// The value of each option given.
    var values: [String: String] = [:]
    /// The words that are no options, in order.
    var positional: [String] = []

    /// An argument the command does not take, or an option without its value.
    struct Unknown: Error {
        var argument: String
    }

    /// Splits `arguments`, knowing the options in `valued` (each takes one value); throws on any other `--` word.
    init(_ arguments: [String], valued: Set<String>) throws {
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            index += 1
            guard argument.hasPrefix("--") else {
                positional.append(argument)
                continue
            }
            let parts = argument.split(separator: "=", maxSplits: 1).map(String.init)
            guard valued.contains(parts[0]) else { throw Unknown(argument: argument) }
            if parts.count == 2 {
                values[parts[0]] = parts[1]
            } else {
                guard index < arguments.endIndex else { throw Unknown(argument: argument) }
                values[parts[0]] = arguments[index]
                index += 1
            }
        }
    }
}
