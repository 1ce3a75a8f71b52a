// swift-tools-version:6.0
import PackageDescription

let strict: [SwiftSetting] = [.swiftLanguageMode(.v6)]

/// Input surfaces with a fuzz target; each name matches a `FuzzTarget` case and a folder under Sources/Fuzz.
let fuzzSurfaces = ["frames", "room", "room-state", "bank", "bank-cache", "http", "websocket", "discovery", "client"]

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
        // statx(2), which Glibc's Swift module does not include: a file's identity without reading its times.
        .target(name: "CStatx"),
        // Sockets, the event loop (epoll, timers, connections), logging: the I/O shell shared by the executables.
        .target(name: "SpyNet", dependencies: ["SpyProtocol", "CEpoll"], swiftSettings: strict),
        // Pure game rules: a deterministic state machine per room. Foundation and SpyProtocol only.
        .target(name: "SpyGame", dependencies: ["SpyProtocol"], swiftSettings: strict),
        // Question bank: embedded default, parsers, fetching and cache.
        .target(name: "SpyBank", dependencies: ["SpyProtocol", "SpyNet"], swiftSettings: strict),
        // QR codes for the banner and the web page: a hand-written encoder. Foundation-free, pure.
        .target(name: "SpyQR", swiftSettings: strict),
        // HTTP/1.1 and WebSocket (RFC 6455) parsers, SHA-1 and the page's assets built in. Foundation only.
        .target(
            name: "SpyWeb", dependencies: ["SpyQR"],
            resources: [
                .embedInCode("Assets/index.html"), .embedInCode("Assets/board.html"),
                .embedInCode("Assets/style.css"), .embedInCode("Assets/favicon.svg"),
                // The page as modules: its words, the reducer and the model (pure), the shell and the views.
                .embedInCode("Assets/strings.mjs"), .embedInCode("Assets/strings/zh-TW.mjs"),
                .embedInCode("Assets/strings/zh-Hans.mjs"), .embedInCode("Assets/strings/en.mjs"),
                .embedInCode("Assets/shell/language.mjs"), .embedInCode("Assets/core/game.mjs"),
                .embedInCode("Assets/core/seat.mjs"), .embedInCode("Assets/core/model.mjs"),
                .embedInCode("Assets/core/moments.mjs"), .embedInCode("Assets/core/intents.mjs"),
                .embedInCode("Assets/shell/dom.mjs"), .embedInCode("Assets/shell/link.mjs"),
                .embedInCode("Assets/shell/device.mjs"), .embedInCode("Assets/shell/effects.mjs"),
                .embedInCode("Assets/views/common.mjs"), .embedInCode("Assets/views/static-text.mjs"),
                .embedInCode("Assets/views/board-view.mjs"), .embedInCode("Assets/views/game-view.mjs"),
                .embedInCode("Assets/views/pass-view.mjs"), .embedInCode("Assets/board.mjs"),
                .embedInCode("Assets/page.mjs"), .embedInCode("Assets/views/page-view.mjs"),
                .embedInCode("Assets/views/board-parts.mjs"),
                .embedInCode("Assets/core/evening.mjs"), .embedInCode("Assets/views/evening-view.mjs"),
                .embedInCode("Assets/views/moderator-view.mjs"), .embedInCode("Assets/core/moderator.mjs"),
            ],
            swiftSettings: strict),
        // The host's decisions without I/O: rooms and their bookkeeping, the bots' driver, the limits per address
        // and per connection. No sockets, no clock reads, no files.
        .target(name: "SpyHost", dependencies: ["SpyProtocol", "SpyGame", "SpyBank", "SpyWeb"], swiftSettings: strict),
        // The host's rooms on disk: the journal (its records, group commit, compaction and replay), the room files
        // of older hosts it is made from, and the state directory they live in.
        .target(
            name: "SpyStorage", dependencies: ["SpyProtocol", "SpyNet", "SpyGame", "SpyHost", "CStatx"],
            swiftSettings: strict),
        .executableTarget(
            name: "spyd",
            dependencies: ["SpyProtocol", "SpyNet", "SpyGame", "SpyBank", "SpyWeb", "SpyQR", "SpyHost", "SpyStorage"],
            swiftSettings: strict),
        // The player's terminal: the state a host's messages build, the screen and line mode drawn from it, the
        // session's socket loop. A library so the fuzz targets reach it; the executable only calls `ClientMain`.
        .target(name: "SpyClient", dependencies: ["SpyProtocol", "SpyNet"], swiftSettings: strict),
        .executableTarget(name: "spy-client", dependencies: ["SpyClient"], swiftSettings: strict),
        .executableTarget(
            name: "spy-bench", dependencies: ["SpyProtocol", "SpyNet", "SpyGame", "SpyBank"], swiftSettings: strict),
        // The bodies of the fuzz targets, so the suite replays their corpora without a fuzzing build.
        .target(
            name: "SpyFuzzing", dependencies: ["SpyProtocol", "SpyGame", "SpyBank", "SpyWeb", "SpyClient"],
            swiftSettings: strict),
        // What the tests share: the built executables of this very build, processes run to their end, a blocking
        // protocol client, deadlines for waiting on real sockets and the tables of each Chinese script's characters.
        .target(
            name: "SpyTestSupport", dependencies: ["SpyProtocol", "SpyNet"], path: "Tests/Support",
            exclude: ["Fixtures"], swiftSettings: strict),
        // The host's core driven by hand, as the shell would drive it but with no socket, thread or clock: the
        // harness most of the host's rule tests run on.
        .target(
            name: "SpyHostHarness", dependencies: ["SpyHost", "SpyProtocol", "SpyGame", "SpyBank", "SpyWeb"],
            path: "Tests/HostHarness", swiftSettings: strict),
        .testTarget(name: "SpyFuzzingTests", dependencies: ["SpyFuzzing", "SpyBank"], swiftSettings: strict),
        .testTarget(
            name: "SpyProtocolTests", dependencies: ["SpyProtocol", "SpyNet", "SpyTestSupport"], swiftSettings: strict),
        .testTarget(name: "SpyGameTests", dependencies: ["SpyGame", "SpyProtocol"], swiftSettings: strict),
        .testTarget(name: "SpyWebTests", dependencies: ["SpyWeb", "SpyQR", "SpyTestSupport"], swiftSettings: strict),
        .testTarget(
            name: "SpyBankTests", dependencies: ["SpyBank", "SpyNet", "SpyTestSupport"], swiftSettings: strict),
        .testTarget(
            name: "spydTests",
            dependencies: [
                "spyd", "SpyHost", "SpyStorage", "SpyProtocol", "SpyNet", "SpyGame", "SpyWeb", "SpyQR",
                "SpyTestSupport", "SpyHostHarness",
            ],
            swiftSettings: strict),
        .testTarget(
            name: "SpyStorageTests", dependencies: ["SpyStorage", "SpyHost", "SpyGame", "SpyProtocol", "SpyNet"],
            swiftSettings: strict),
        .testTarget(
            name: "SpyHostTests",
            dependencies: ["SpyHost", "SpyHostHarness", "SpyProtocol", "SpyGame", "SpyBank", "SpyWeb"],
            swiftSettings: strict),
        .testTarget(name: "SpyQRTests", dependencies: ["SpyQR"], exclude: ["Fixtures"], swiftSettings: strict),
        .testTarget(
            name: "spy-clientTests",
            dependencies: ["spy-client", "SpyClient", "SpyProtocol", "SpyNet", "SpyTestSupport"],
            swiftSettings: strict),
        .testTarget(
            name: "spy-benchTests",
            dependencies: ["spy-bench", "spyd", "SpyStorage", "SpyProtocol", "SpyNet", "SpyTestSupport"],
            swiftSettings: strict),
    ]
)

// libFuzzer executables, one per input surface. They link only under `--sanitize=fuzzer` (libFuzzer supplies
// `main`), so they exist only when scripts/fuzz.sh asks for them with SPY_FUZZ=1.
if Context.environment["SPY_FUZZ"] == "1" {
    for surface in fuzzSurfaces {
        package.products.append(.executable(name: "fuzz-\(surface)", targets: ["Fuzz_\(surface)"]))
        package.targets.append(
            .executableTarget(
                name: "Fuzz_\(surface)", dependencies: ["SpyFuzzing"], path: "Sources/Fuzz/\(surface)",
                swiftSettings: strict))
    }
}
