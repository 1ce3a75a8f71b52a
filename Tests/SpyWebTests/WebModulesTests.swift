import Testing

@testable import SpyWeb

/// The pages load ES modules by route: every module a page's `<script type="module">` names, and every module
/// those import (`from "./x.mjs"`, relative to the importer), is served, so no page fails on a missing import.
@Suite struct WebModulesTests {
    /// The `src` of every module script of `html`.
    static func moduleScripts(_ html: String) -> [String] {
        html.components(separatedBy: "<script type=\"module\" src=\"").dropFirst().compactMap {
            $0.split(separator: "\"", maxSplits: 1).first.map(String.init)
        }
    }

    /// The specifiers after `from "` in a module's text.
    static func imports(_ source: String) -> [String] {
        source.components(separatedBy: "from \"").dropFirst().compactMap {
            $0.split(separator: "\"", maxSplits: 1).first.map(String.init)
        }
    }

    /// `specifier` resolved against the route `base` (`./x`, `../x`, or an absolute route).
    static func resolve(_ specifier: String, from base: String) -> String {
        if specifier.hasPrefix("/") { return specifier }
        var parts = base.split(separator: "/").map(String.init).dropLast()
        for part in specifier.split(separator: "/").map(String.init) {
            if part == "." { continue }
            if part == ".." { parts = parts.dropLast() } else { parts.append(part) }
        }
        return "/" + parts.joined(separator: "/")
    }

    @Test(arguments: [
        ("/", "/page.mjs", "/views/page-view.mjs"), ("/board", "/board.mjs", "/views/board-view.mjs"),
    ])
    func everyModuleAPageLoadsIsServed(page: String, entry: String, view: String) throws {
        let html = String(decoding: try #require(WebAssets.byPath[page]).bytes, as: UTF8.self)
        var pending = Self.moduleScripts(html)
        #expect(pending == [entry])
        #expect(!html.contains("<script src="), "a classic script left in \(page)")
        var seen: Set<String> = []
        var missing: [String] = []
        while let route = pending.popLast() {
            guard seen.insert(route).inserted else { continue }
            guard let asset = WebAssets.byPath[route] else {
                missing.append(route)
                continue
            }
            #expect(asset.contentType == "text/javascript; charset=utf-8")
            pending += Self.imports(String(decoding: asset.bytes, as: UTF8.self)).map { Self.resolve($0, from: route) }
        }
        #expect(missing.isEmpty, "imported but not served: \(missing)")
        #expect(seen.contains("/core/seat.mjs") && seen.contains("/strings/en.mjs") && seen.contains(view))
    }

    @Test func everyServedModuleIsLoadedByAPage() throws {
        var loaded: Set<String> = []
        var pending = ["/page.mjs", "/board.mjs"]
        while let route = pending.popLast() {
            guard loaded.insert(route).inserted, let asset = WebAssets.byPath[route] else { continue }
            pending += Self.imports(String(decoding: asset.bytes, as: UTF8.self)).map { Self.resolve($0, from: route) }
        }
        let served = Set(WebAssets.byPath.keys.filter { $0.hasSuffix(".mjs") })
        #expect(served.subtracting(loaded).isEmpty, "served but loaded by no page: \(served.subtracting(loaded))")
    }

    @Test func specifiersResolveAgainstTheImporter() {
        #expect(Self.resolve("./core/seat.mjs", from: "/board.mjs") == "/core/seat.mjs")
        #expect(Self.resolve("../shell/dom.mjs", from: "/views/common.mjs") == "/shell/dom.mjs")
        #expect(Self.resolve("./strings/en.mjs", from: "/strings.mjs") == "/strings/en.mjs")
    }
}
