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
            WebAsset(path: "/favicon.svg", contentType: "image/svg+xml", bytes: PackageResources.favicon_svg),
        ]
        // The ES modules, by the routes their imports name (relative to the module that imports them).
        let modules: [(String, [UInt8])] = [
            ("/page.mjs", PackageResources.page_mjs),
            ("/board.mjs", PackageResources.board_mjs),
            ("/strings.mjs", PackageResources.strings_mjs),
            ("/strings/zh-TW.mjs", PackageResources.zh_TW_mjs),
            ("/strings/zh-Hans.mjs", PackageResources.zh_Hans_mjs),
            ("/strings/en.mjs", PackageResources.en_mjs),
            ("/core/game.mjs", PackageResources.game_mjs),
            ("/core/seat.mjs", PackageResources.seat_mjs),
            ("/core/model.mjs", PackageResources.model_mjs),
            ("/core/moments.mjs", PackageResources.moments_mjs),
            ("/core/intents.mjs", PackageResources.intents_mjs),
            ("/core/evening.mjs", PackageResources.evening_mjs),
            ("/shell/dom.mjs", PackageResources.dom_mjs),
            ("/shell/link.mjs", PackageResources.link_mjs),
            ("/shell/device.mjs", PackageResources.device_mjs),
            ("/shell/effects.mjs", PackageResources.effects_mjs),
            ("/shell/language.mjs", PackageResources.language_mjs),
            ("/views/common.mjs", PackageResources.common_mjs),
            ("/views/static-text.mjs", PackageResources.static_text_mjs),
            ("/views/board-view.mjs", PackageResources.board_view_mjs),
            ("/views/board-parts.mjs", PackageResources.board_parts_mjs),
            ("/views/game-view.mjs", PackageResources.game_view_mjs),
            ("/views/pass-view.mjs", PackageResources.pass_view_mjs),
            ("/views/page-view.mjs", PackageResources.page_view_mjs),
            ("/views/evening-view.mjs", PackageResources.evening_view_mjs),
            ("/views/moderator-view.mjs", PackageResources.moderator_view_mjs),
            ("/core/moderator.mjs", PackageResources.moderator_mjs),
        ]
        let all = assets + modules.map { WebAsset(path: $0.0, contentType: script, bytes: $0.1) }
        return Dictionary(uniqueKeysWithValues: all.map { ($0.path, $0) })
    }()
}
