/// Ways to show a code: terminal text and SVG, each with the four-module quiet zone scanners need.
extension QRCode {
    /// Light modules around the symbol on every side.
    public static let quietZone = 4

    /// The code as lines of Unicode half blocks, two module rows per line, quiet zone included.
    ///
    /// With `colour`, every line sets black on white explicitly (and resets at its end), so the code reads the same
    /// in dark and light terminals. Without colour the glyphs take the terminal's own foreground: `invert: false`
    /// draws dark modules as glyphs (right on a light background), `invert: true` draws light modules as glyphs
    /// (right on a dark background, the usual terminal).
    public func terminalLines(invert: Bool = false, colour: Bool = true) -> [String] {
        let zone = QRCode.quietZone
        let span = (-zone)..<(size + zone)
        var lines: [String] = []
        var y = -zone
        while y < size + zone {
            var line = colour ? "\u{1B}[38;5;16;48;5;231m" : ""
            for x in span {
                // Colour always paints dark modules with the black foreground; the glyph choice never inverts.
                let top = isDark(x: x, y: y) != (invert && !colour)
                let bottom = isDark(x: x, y: y + 1) != (invert && !colour)
                switch (top, bottom) {
                case (true, true): line += "█"
                case (true, false): line += "▀"
                case (false, true): line += "▄"
                case (false, false): line += " "
                }
            }
            if colour { line += "\u{1B}[0m" }
            lines.append(line)
            y += 2
        }
        return lines
    }

    /// A compact SVG, one unit per module, quiet zone included: a white square and one path of dark runs.
    public func svg() -> String {
        let zone = QRCode.quietZone
        let side = size + 2 * zone
        var path = ""
        for y in 0..<size {
            var x = 0
            while x < size {
                guard isDark(x: x, y: y) else {
                    x += 1
                    continue
                }
                var run = 1
                while isDark(x: x + run, y: y) { run += 1 }
                path += "M\(x + zone) \(y + zone)h\(run)v1h-\(run)z"
                x += run
            }
        }
        return """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(side) \(side)" shape-rendering="crispEdges">\
            <rect width="\(side)" height="\(side)" fill="#fff"/><path fill="#000" d="\(path)"/></svg>

            """
    }
}
