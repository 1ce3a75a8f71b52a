import Foundation
import SpyQR
import Testing

@testable import spyd

/// Reads the banner's half-block lines back into modules. `glyphIsDark` is false for the no-colour drawing, whose
/// glyphs are the light modules (it is meant for a dark background).
func bannerModules(_ lines: [String], glyphIsDark: Bool) -> [[Bool]] {
    var grid: [[Bool]] = []
    for line in lines {
        var top: [Bool] = []
        var bottom: [Bool] = []
        for glyph in line {
            top.append((glyph == "█" || glyph == "▀") == glyphIsDark)
            bottom.append((glyph == "█" || glyph == "▄") == glyphIsDark)
        }
        grid += [top, bottom]
    }
    return grid
}

/// Removes SGR escape sequences.
func withoutEscapes(_ text: String) -> String {
    var plain = ""
    var inEscape = false
    for character in text {
        if character == "\u{1B}" {
            inEscape = true
        } else if inEscape {
            if character == "m" { inEscape = false }
        } else {
            plain.append(character)
        }
    }
    return plain
}

/// The banner of a real `spyd` on a pseudo-terminal: its lines and the QR drawn in it.
struct DrawnBanner {
    var lines: [String]
    var qrLines: [String]
    var hadColour: Bool

    init(extraArguments: [String] = [], environment extra: [String: String] = [:]) throws {
        var environment = ProcessInfo.processInfo.environment
        environment["SWIFT_BACKTRACE"] = "enable=no"
        environment["NO_COLOR"] = nil
        environment["TERM"] = "xterm-256color"
        for (key, value) in extra { environment[key] = value }
        let daemon = try PseudoTerminalProcess(
            DaemonProcess.binary,
            arguments: ["--host", "--bind", "127.0.0.1", "--port", "0", "--no-state"] + extraArguments,
            environment: environment)
        defer { daemon.stop() }
        guard daemon.waitForLine(containing: "Stop with Ctrl-C") != nil else {
            throw DaemonError(description: "no banner:\n\(daemon.text)")
        }
        hadColour = daemon.text.contains("\u{1B}[38;5;16;48;5;231m")
        lines = withoutEscapes(daemon.text).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        qrLines = lines.filter { line in
            line.hasPrefix("    ") && line.count > 4 + 20 && line.dropFirst(4).allSatisfy { " ▀▄█".contains($0) }
        }.map { String($0.dropFirst(4)) }
    }

    /// The browser address the banner prints under its code.
    var scanURL: String? {
        lines.first { $0.contains("Scan to join: ") }.map { String($0.split(separator: " ").last!) }
    }
}

@Suite(.serialized) struct BannerQRTests {
    @Test(.tags(.shell), .enabled(if: ZBar.shouldRun))
    func theBannersCodeDecodesToThePrintedAddress() throws {
        let banner = try DrawnBanner()
        #expect(banner.hadColour)
        let url = try #require(banner.scanURL)
        let port = try #require(banner.lines.first { $0.contains("spy-client 127.0.0.1:") }?.split(separator: ":").last)
        #expect(url == "http://127.0.0.1:\(port)")
        #expect(!banner.qrLines.isEmpty)
        #expect(try ZBar.decode(bannerModules(banner.qrLines, glyphIsDark: true)) == url)
    }

    @Test(.tags(.shell), .enabled(if: ZBar.shouldRun))
    func withNoColourTheCodeIsDrawnForADarkBackgroundAndStillDecodes() throws {
        let banner = try DrawnBanner(environment: ["NO_COLOR": "1"])
        #expect(!banner.hadColour)
        let url = try #require(banner.scanURL)
        // Drawn in the terminal's own colours: light text on a dark background turns the glyphs into light modules.
        #expect(try ZBar.decode(bannerModules(banner.qrLines, glyphIsDark: false)) == url)
    }

    @Test(.tags(.shell)) func noQRLeavesTheCodeOut() throws {
        let banner = try DrawnBanner(extraArguments: ["--no-qr"])
        #expect(banner.qrLines.isEmpty)
        #expect(banner.scanURL == nil)
        #expect(banner.lines.contains { $0.contains("spy-client 127.0.0.1:") })
    }

    @Test(
        .enabled(if: ZBar.shouldRun),
        arguments: [
            "A", "http://192.168.1.5:7777", "http://[fd00::1234:5678]:7777",
            "誰是臥底 · 在區域網路上一起玩：掃描加入",
            String(repeating: "0123456789", count: 21) + "abc",
        ])
    func aRealDecoderReadsTheEncodersOutput(_ text: String) throws {
        let code = try QRCode(text: text)
        let zone = QRCode.quietZone
        let grid = (-zone..<code.size + zone).map { y in
            (-zone..<code.size + zone).map { x in code.isDark(x: x, y: y) }
        }
        #expect(try ZBar.decode(grid) == text)
    }
}

/// A host that serves only loopback says so: phones cannot reach the address it prints.
@Suite struct LoopbackBannerTests {
    @Test(.tags(.shell)) func aLoopbackOnlyHostWarnsThatPhonesCannotReachIt() throws {
        let banner = try DrawnBanner(extraArguments: ["--no-qr"])
        let warning = try #require(banner.lines.firstIndex { $0.contains("only a loopback address is served") })
        #expect(banner.lines[warning].contains("phones and other machines on the network cannot reach it"))
        #expect(banner.lines.contains { $0.contains("spy-client 127.0.0.1:") })
    }

    @Test func onlyLoopbackAddressesAreLoopback() {
        for address in ["127.0.0.1", "127.1.2.3", "::1", "localhost", "LOCALHOST", "0:0:0:0:0:0:0:1"] {
            #expect(Spyd.isLoopback(address), "\(address)")
        }
        for address in ["192.168.1.5", "10.0.0.1", "fe80::1", "spy.lan", "0.0.0.0", "128.0.0.1"] {
            #expect(!Spyd.isLoopback(address), "\(address)")
        }
        let lan = Spyd.JoinWay(address: "192.168.1.5", terminal: "", browser: "")
        let loopback = Spyd.JoinWay(address: "127.0.0.1", terminal: "", browser: "")
        #expect(Spyd.loopbackWarning([loopback]) != nil)
        #expect(Spyd.loopbackWarning([loopback, lan]) == nil)
        #expect(Spyd.loopbackWarning([]) == nil)
    }
}
