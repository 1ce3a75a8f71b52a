import Foundation

/// Where a bank comes from: an http(s) URL or a local file, as given on the command line.
public struct BankSource: Sendable, Hashable, CustomStringConvertible {
    /// How the bytes are read.
    public enum Location: Sendable, Hashable {
        /// Fetched over HTTP or HTTPS.
        case remote(URL)
        /// Read from the local file system.
        case file(String)
    }

    /// The text the host gave (`--bank` value, or `--sheet` value), which also names the cache entry.
    public var spec: String
    /// Where to read from.
    public var location: Location

    public init(spec: String, location: Location) {
        self.spec = spec
        self.location = location
    }

    public var description: String {
        switch location {
        case .remote(let url): return url.absoluteString
        case .file(let path): return path
        }
    }

    /// Whether the source is fetched over the network (and so worth caching).
    public var isRemote: Bool {
        if case .remote = location { return true }
        return false
    }

    /// Reads a `--bank` value (`http://…`, `https://…`, `file://…` or a path) or, with `sheet`, a `--sheet` value:
    /// a spreadsheet ID with an optional `#gid`, or a sheet's browser URL, turned into its CSV export URL.
    public static func parse(_ spec: String, sheet: Bool = false) -> Result<BankSource, BankSourceError> {
        let trimmed = spec.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { return .failure(.empty) }
        if sheet { return sheetSource(trimmed).map { BankSource(spec: trimmed, location: .remote($0)) } }
        let lowered = trimmed.lowercased()
        if lowered.hasPrefix("http://") || lowered.hasPrefix("https://") {
            guard let url = URL(string: trimmed), let host = url.host, !host.isEmpty else {
                return .failure(.invalidURL(trimmed))
            }
            // A sheet's page is HTML; the same sheet's CSV is what the host wants.
            return .success(BankSource(spec: trimmed, location: .remote(GoogleSheetAddress.csvURL(for: url) ?? url)))
        }
        if lowered.hasPrefix("file://") {
            guard let url = URL(string: trimmed), url.isFileURL else { return .failure(.invalidURL(trimmed)) }
            return .success(BankSource(spec: trimmed, location: .file(url.path)))
        }
        if let colon = trimmed.range(of: "://") {
            return .failure(.unsupportedScheme(String(trimmed[..<colon.lowerBound])))
        }
        return .success(BankSource(spec: trimmed, location: .file(trimmed)))
    }

    /// `ID`, `ID#gid` or `ID#gid=GID`, or a Google Sheets address (browser, `/u/N/` or published form).
    static func sheetSource(_ spec: String) -> Result<URL, BankSourceError> {
        if spec.contains("/") {
            guard let url = URL(string: spec.hasPrefix("http") ? spec : "https://" + spec),
                let kind = GoogleSheetAddress.classify(url), let csv = GoogleSheetAddress.csvURL(kind)
            else { return .failure(.invalidSheet(spec)) }
            return .success(csv)
        }
        var id = spec
        var gid: String?
        if let hash = spec.firstIndex(of: "#") {
            id = String(spec[..<hash])
            var fragment = spec[spec.index(after: hash)...]
            if fragment.hasPrefix("gid=") { fragment = fragment.dropFirst(4) }
            gid = String(fragment)
        }
        guard GoogleSheetAddress.isIdentifier(id) else { return .failure(.invalidSheet(spec)) }
        if let gid, gid.isEmpty || !gid.allSatisfy({ $0.isASCII && $0.isNumber }) {
            return .failure(.invalidSheet(spec))
        }
        guard let url = GoogleSheetAddress.csvURL(.spreadsheet(id: id, gid: gid)) else {
            return .failure(.invalidSheet(spec))
        }
        return .success(url)
    }
}

/// Why a source specification is unusable.
public enum BankSourceError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Nothing was given.
    case empty
    /// The text starts like a URL but is not one.
    case invalidURL(String)
    /// A scheme other than http, https or file.
    case unsupportedScheme(String)
    /// Not a spreadsheet ID (letters, digits, `-`, `_`), optionally followed by `#` and a numeric gid.
    case invalidSheet(String)

    public var description: String {
        switch self {
        case .empty: return "empty source"
        case .invalidURL(let text): return "not a valid URL: \(text)"
        case .unsupportedScheme(let scheme): return "unsupported scheme \(scheme):// (use http, https or a file path)"
        case .invalidSheet(let text): return "not a spreadsheet ID[#gid]: \(text)"
        }
    }
}
