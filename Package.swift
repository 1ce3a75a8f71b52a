// swift-tools-version:6.0
import PackageDescription

let strict: [SwiftSetting] = [.swiftLanguageMode(.v6)]

let package = Package(
    name: "WhoIsSpy",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "spyd", targets: ["spyd"]),
        .executable(name: "spy-client", targets: ["spy-client"]),
        .executable(name: "spy-bench", targets: ["spy-bench"]),
        .library(name: "SpyProtocol", targets: ["SpyProtocol"]),
    ],
    targets: [
        // Pure wire vocabulary: frames, messages, error codes, text width. Foundation only.
        .target(name: "SpyProtocol", swiftSettings: strict),
        // <sys/epoll.h>, which Glibc's Swift module does not include.
        .target(name: "CEpoll"),
        // Sockets, pollers, connection buffers, logging: the I/O shell shared by the executables.
        .target(name: "SpyNet", dependencies: ["SpyProtocol", "CEpoll"], swiftSettings: strict),
        // Pure game rules: a deterministic state machine per room. Foundation and SpyProtocol only.
        .target(name: "SpyGame", dependencies: ["SpyProtocol"], swiftSettings: strict),
        // Question bank: embedded default, parsers, fetching and cache.
        .target(name: "SpyBank", dependencies: ["SpyProtocol", "SpyNet"], swiftSettings: strict),
        // QR codes for the banner and the web page: a hand-written encoder. Foundation-free, pure.
        .target(name: "SpyQR", swiftSettings: strict),
        .executableTarget(
            name: "spyd", dependencies: ["SpyProtocol", "SpyNet", "SpyGame", "SpyBank", "SpyQR"],
            swiftSettings: strict),
        .executableTarget(name: "spy-client", dependencies: ["SpyProtocol", "SpyNet"], swiftSettings: strict),
        .executableTarget(
            name: "spy-bench", dependencies: ["SpyProtocol", "SpyNet", "SpyGame"], swiftSettings: strict),
        .testTarget(name: "SpyProtocolTests", dependencies: ["SpyProtocol", "SpyNet"], swiftSettings: strict),
        .testTarget(name: "SpyGameTests", dependencies: ["SpyGame", "SpyProtocol"], swiftSettings: strict),
        .testTarget(name: "SpyBankTests", dependencies: ["SpyBank", "SpyNet"], swiftSettings: strict),
        .testTarget(
            name: "spydTests", dependencies: ["spyd", "SpyProtocol", "SpyNet", "SpyGame", "SpyQR"],
            swiftSettings: strict),
        .testTarget(name: "SpyQRTests", dependencies: ["SpyQR"], exclude: ["Fixtures"], swiftSettings: strict),
        .testTarget(
            name: "spy-clientTests", dependencies: ["spy-client", "SpyProtocol", "SpyNet"], swiftSettings: strict),
        .testTarget(
            name: "spy-benchTests", dependencies: ["spy-bench", "spyd", "SpyProtocol", "SpyNet"],
            swiftSettings: strict),
    ]
)
