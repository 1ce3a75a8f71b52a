import Foundation
import XCTest

@testable import SpyBank

/// The addresses people copy from Google Sheets, given to `--bank` or `--sheet`, become the sheet's CSV.
final class GoogleSheetAddressTests: XCTestCase {
    static let id = "1xFqqMnqUFRNTnj_su5cW0hCgnj7Fw-kCaIJOO-NEApM"
    static let key = "2PACX-1vQx_Ab-3Cd4Ef5Gh6"
    static let export = "https://docs.google.com/spreadsheets/d/\(id)/export?format=csv"
    static let published = "https://docs.google.com/spreadsheets/d/e/\(key)/pub?output=csv"

    private func fetched(_ spec: String, sheet: Bool = false) -> String? {
        guard case .remote(let url) = try? BankSource.parse(spec, sheet: sheet).get().location else { return nil }
        return url.absoluteString
    }

    func testBrowserAddressGivenToBankIsTheExport() {
        let edit = "https://docs.google.com/spreadsheets/d/\(Self.id)/edit"
        XCTAssertEqual(fetched(edit + "#gid=1234567"), Self.export + "&gid=1234567")
        XCTAssertEqual(fetched(edit), Self.export)
        XCTAssertEqual(fetched(edit + "?usp=sharing"), Self.export)
        XCTAssertEqual(fetched("https://docs.google.com/spreadsheets/d/\(Self.id)/"), Self.export)
        XCTAssertEqual(fetched(edit + "#gid=5", sheet: true), Self.export + "&gid=5")
        // The cache entry stays named by what the host typed.
        XCTAssertEqual(try BankSource.parse(edit + "#gid=1").get().spec, edit + "#gid=1")
    }

    func testAccountSegmentIsAccepted() {
        let edit = "https://docs.google.com/spreadsheets/u/1/d/\(Self.id)/edit#gid=9"
        XCTAssertEqual(fetched(edit), Self.export + "&gid=9")
        XCTAssertEqual(fetched(edit, sheet: true), Self.export + "&gid=9")
        XCTAssertEqual(fetched("https://docs.google.com/spreadsheets/u/0/d/\(Self.id)/edit"), Self.export)
    }

    func testPublishedAddressesBecomeThePublishFormsCSV() {
        let base = "https://docs.google.com/spreadsheets/d/e/\(Self.key)"
        XCTAssertEqual(fetched(base + "/pubhtml"), Self.published)
        XCTAssertEqual(fetched(base + "/pubhtml?gid=42&single=true"), Self.published + "&gid=42")
        XCTAssertEqual(fetched(base + "/pubhtml#gid=42"), Self.published + "&gid=42")
        XCTAssertEqual(fetched(base + "/pub?gid=7&single=true&output=html"), Self.published + "&gid=7")
        XCTAssertEqual(fetched(base + "/pub"), Self.published)
        XCTAssertEqual(fetched(base + "/pubhtml", sheet: true), Self.published)
    }

    func testAddressesThatAlreadyGiveDataAreLeftAlone() {
        for address in [
            Self.export + "&gid=3",
            "https://docs.google.com/spreadsheets/d/e/\(Self.key)/pub?gid=0&single=true&output=csv",
            "https://docs.google.com/spreadsheets/d/\(Self.id)/gviz/tq?tqx=out:json",
            "https://example.org/spreadsheets/d/\(Self.id)/edit",
        ] {
            XCTAssertEqual(fetched(address), address)
        }
    }

    func testSheetOptionRefusesAddressesThatAreNotASheet() {
        for spec in [
            "https://example.org/x/y", "https://docs.google.com/document/d/\(Self.id)/edit",
            "https://docs.google.com/spreadsheets/d/bad%20id/edit",
        ] {
            XCTAssertNil(fetched(spec, sheet: true), spec)
        }
    }
}
