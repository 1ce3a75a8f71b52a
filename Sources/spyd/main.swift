import Foundation

exit(Spyd.run(CommandLine.arguments, environment: ProcessInfo.processInfo.environment))
