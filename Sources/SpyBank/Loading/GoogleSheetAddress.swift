import Foundation

/// Turns the addresses people copy from Google Sheets into the address of the sheet's CSV: the browser address
/// (`…/spreadsheets/d/ID/edit#gid=N`, also with an account segment `…/spreadsheets/u/1/d/ID/edit`) becomes the
/// export (`…/d/ID/export?format=csv&gid=N`), and a published address (`…/spreadsheets/d/e/2PACX…/pubhtml` or
/// `/pub?…`) becomes the publish form's CSV output (`…/d/e/2PACX…/pub?output=csv&gid=N`).
enum GoogleSheetAddress {
    /// What an address names.
    enum Kind: Equatable {
        /// A spreadsheet by its ID, with a tab when known.
        case spreadsheet(id: String, gid: String?)
        /// A published spreadsheet by its publish key (`2PACX…`), with a tab when known.
        case published(key: String, gid: String?)
    }

    /// The CSV address for a Google Sheets address that shows a page rather than data; `nil` for any other
    /// address, including Sheets addresses that already give data (`/export?…`, `/gviz/…`, `/pub?output=csv`).
    static func csvURL(for url: URL) -> URL? {
        guard let kind = classify(url) else { return nil }
        return csvURL(kind)
    }

    static func csvURL(_ kind: Kind) -> URL? {
        switch kind {
        case .spreadsheet(let id, let gid):
            return URL(
                string: "https://docs.google.com/spreadsheets/d/\(id)/export?format=csv"
                    + (gid.map { "&gid=\($0)" } ?? ""))
        case .published(let key, let gid):
            return URL(
                string: "https://docs.google.com/spreadsheets/d/e/\(key)/pub?output=csv"
                    + (gid.map { "&gid=\($0)" } ?? ""))
        }
    }

    /// Reads a docs.google.com spreadsheet page address; `nil` when it is not one or already gives data.
    static func classify(_ url: URL) -> Kind? {
        guard let host = url.host?.lowercased(), host == "docs.google.com" else { return nil }
        var parts = url.path.split(separator: "/").map(String.init)
        guard parts.first == "spreadsheets" else { return nil }
        parts.removeFirst()
        // `/u/1/` picks the signed-in account in a browser; it does not change the document.
        if parts.count >= 2 && parts[0] == "u" && parts[1].allSatisfy(\.isNumber) { parts.removeFirst(2) }
        guard parts.first == "d", parts.count >= 2 else { return nil }
        let gid = gid(in: url)
        if parts[1] == "e" {
            guard parts.count >= 3, isIdentifier(parts[2]) else { return nil }
            let page = parts.count > 3 ? parts[3] : ""
            guard parts.count <= 4, ["pubhtml", "pub", ""].contains(page) else { return nil }
            if page == "pub", queryValue("output", in: url) != nil, queryValue("output", in: url) != "html" {
                return nil
            }
            return .published(key: parts[2], gid: gid)
        }
        guard isIdentifier(parts[1]) else { return nil }
        let page = parts.count > 2 ? parts[2] : ""
        guard parts.count <= 3, ["edit", "view", "htmlview", "preview", ""].contains(page) else { return nil }
        return .spreadsheet(id: parts[1], gid: gid)
    }

    /// Letters, digits, `-` and `_`: what Google's IDs and publish keys are made of.
    static func isIdentifier(_ text: String) -> Bool {
        !text.isEmpty
            && text.unicodeScalars.allSatisfy {
                $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_")
            }
    }

    /// The tab, from `#gid=N` (browser address) or `?gid=N` (published address); only digits count.
    private static func gid(in url: URL) -> String? {
        if let fragment = url.fragment {
            for item in fragment.split(separator: "&") where item.hasPrefix("gid=") {
                let value = item.dropFirst(4)
                if !value.isEmpty && value.allSatisfy({ $0.isASCII && $0.isNumber }) { return String(value) }
            }
        }
        if let value = queryValue("gid", in: url), !value.isEmpty, value.allSatisfy({ $0.isASCII && $0.isNumber }) {
            return value
        }
        return nil
    }

    private static func queryValue(_ name: String, in url: URL) -> String? {
        URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == name }?.value
    }
}
