import SpyQR

/// The QR code of the browser address, drawn in the banner so phones join by pointing their camera.
enum BannerQR {
    /// How the code is drawn on the terminal.
    enum Style: Sendable, Equatable {
        /// Black on white set explicitly: reads the same in dark and light terminals.
        case colour
        /// `NO_COLOR` or a dumb terminal: the terminal's own colours, drawn for a dark background (light modules
        /// are the glyphs), the usual terminal; the address is printed above it in any case.
        case noColour
    }

    /// The style the environment allows.
    static func style(environment: [String: String]) -> Style {
        (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb" ? .colour : .noColour
    }

    /// The banner lines: the code, indented like the join lines, then the address it holds, its Chinese words in
    /// Simplified characters for a host dealing Simplified Chinese pairs.
    static func lines(url: String, style: Style, simplified: Bool = false) -> [String] {
        guard let code = try? QRCode(text: url) else { return [] }
        let drawn = code.terminalLines(invert: style == .noColour, colour: style == .colour)
        return drawn.map { "    " + $0 } + ["    \(simplified ? "扫描加入" : "掃描加入") · Scan to join: \(url)", ""]
    }
}
