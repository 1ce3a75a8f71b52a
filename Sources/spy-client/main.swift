import Foundation
import SpyClient

ClientMain.run(arguments: CommandLine.arguments, environment: ProcessInfo.processInfo.environment)
