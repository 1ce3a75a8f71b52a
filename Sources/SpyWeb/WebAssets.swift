/// One file of the page, built into the binary.
public struct WebAsset: Sendable {
    /// The route that serves it.
    public let path: String
    public let contentType: String
    public let bytes: [UInt8]
    /// A strong entity tag: the SHA-1 of the bytes, quoted.
    public let etag: String

    init(path: String, contentType: String, bytes: [UInt8]) {
        self.path = path
        self.contentType = contentType
        self.bytes = bytes
        self.etag = "\"\(SHA1.hex(bytes))\""
    }
}

/// The page's files, by fixed route. They are compiled into the binary (`.embedInCode`): nothing is read from the
/// file system and no path is ever built from a request.
public enum WebAssets {
    /// Every asset, by route.
    public static let byPath: [String: WebAsset] = {
        let html = "text/html; charset=utf-8"
        let script = "text/javascript; charset=utf-8"
        let assets = [
            WebAsset(path: "/", contentType: html, bytes: PackageResources.index_html),
            WebAsset(path: "/board", contentType: html, bytes: PackageResources.board_html),
            WebAsset(path: "/style.css", contentType: "text/css; charset=utf-8", bytes: PackageResources.style_css),
            WebAsset(path: "/app.js", contentType: script, bytes: PackageResources.app_js),
            WebAsset(path: "/board.js", contentType: script, bytes: PackageResources.board_js),
            WebAsset(path: "/strings.js", contentType: script, bytes: PackageResources.strings_js),
            WebAsset(path: "/shared.js", contentType: script, bytes: PackageResources.shared_js),
            WebAsset(path: "/seats.js", contentType: script, bytes: PackageResources.seats_js),
            WebAsset(path: "/pass.js", contentType: script, bytes: PackageResources.pass_js),
            WebAsset(path: "/favicon.svg", contentType: "image/svg+xml", bytes: PackageResources.favicon_svg),
        ]
        return Dictionary(uniqueKeysWithValues: assets.map { ($0.path, $0) })
    }()
}
