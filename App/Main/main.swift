import Foundation
import Shell

let status = await AppRunner.standard().run(Array(CommandLine.arguments.dropFirst()))
exit(status)
