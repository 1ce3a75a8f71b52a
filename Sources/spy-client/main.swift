import Foundation
import SpyClient

exit(ClientMain.run(arguments: CommandLine.arguments, environment: ProcessInfo.processInfo.environment))
