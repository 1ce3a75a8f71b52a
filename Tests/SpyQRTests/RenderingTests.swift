import Foundation
import Testing

@testable import SpyQR

/// Reads half-block lines back into modules: the glyph's upper half is the first row, its lower half the second.
func modules(fromTerminal lines: [String], glyphIsDark: Bool) -> [[Bool]] {
    var grid: [[Bool]] = []
    for line in lines {
        var plain = ""
        var inEscape = false
        for character in line {
            if character == "\u{1B}" {
                inEscape = true
            } else if inEscape {
                if character == "m" { inEscape = false }
            } else {
                plain.append(character)
            }
        }
        var top: [Bool] = []
        var bottom: [Bool] = []
        for glyph in plain {
            top.append((glyph == "█" || glyph == "▀") == glyphIsDark)
            bottom.append((glyph == "█" || glyph == "▄") == glyphIsDark)
        }
        grid += [top, bottom]
    }
    return grid
}

@Suite struct RenderingTests {
    let code = try! QRCode(text: "http://192.168.1.5:7777")

    func expected(rows count: Int) -> [[Bool]] {
        let zone = QRCode.quietZone
        return (0..<count).map { y in
            (0..<(code.size + 2 * zone)).map { x in code.isDark(x: x - zone, y: y - zone) }
        }
    }

    @Test func colourLinesDrawBlackOnWhiteWithAQuietZone() {
        let lines = code.terminalLines()
        let side = code.size + 2 * QRCode.quietZone
        #expect(lines.count == (side + 1) / 2)
        for line in lines {
            #expect(line.hasPrefix("\u{1B}[38;5;16;48;5;231m"))
            #expect(line.hasSuffix("\u{1B}[0m"))
        }
        let grid = modules(fromTerminal: lines, glyphIsDark: true)
        #expect(Array(grid.prefix(side)) == expected(rows: side))
        // The odd last row is padding, light like the quiet zone.
        #expect(grid[side].allSatisfy { !$0 })
        // Inverting has no meaning when the colours are explicit.
        #expect(code.terminalLines(invert: true) == lines)
    }

    @Test func plainLinesUseNoEscapesAndInvertOnRequest() {
        let side = code.size + 2 * QRCode.quietZone
        let plain = code.terminalLines(invert: false, colour: false)
        let inverted = code.terminalLines(invert: true, colour: false)
        #expect(!plain.joined().contains("\u{1B}"))
        #expect(Array(modules(fromTerminal: plain, glyphIsDark: true).prefix(side)) == expected(rows: side))
        #expect(Array(modules(fromTerminal: inverted, glyphIsDark: false).prefix(side)) == expected(rows: side))
        // Inverted, the quiet zone is drawn as full blocks so it shows light on a dark background.
        #expect(inverted[0].allSatisfy { $0 == "█" })
        #expect(plain.allSatisfy { $0.count == side })
    }

    @Test func svgHasTheQuietZoneAndEveryDarkModule() throws {
        let svg = code.svg()
        let side = code.size + 2 * QRCode.quietZone
        #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(side) \(side)\""))
        #expect(svg.contains("<rect width=\"\(side)\" height=\"\(side)\" fill=\"#fff\"/>"))
        // Paint the path's runs back onto a grid and compare.
        let path = try #require(svg.firstMatch(of: /d="([^"]*)"/)).1
        var painted = [[Bool]](repeating: [Bool](repeating: false, count: side), count: side)
        for run in path.matches(of: /M(\d+) (\d+)h(\d+)v1h-(\d+)z/) {
            let (x, y, length) = (Int(run.1)!, Int(run.2)!, Int(run.3)!)
            #expect(Int(run.4)! == length)
            for column in x..<x + length { painted[y][column] = true }
        }
        #expect(painted == expected(rows: side))
        #expect(svg.utf8.count < 8_000)
    }
}
