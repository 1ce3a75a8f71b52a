import Foundation
import SpyBank
import Testing

@testable import SpyFuzzing

/// Every committed seed and every past finding goes through the same body the fuzzer runs, so a crash found
/// once stays fixed and the seeds keep matching the code.
@Suite struct CorpusReplayTests {
    static let fuzzDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz")

    static func inputs(_ kind: String, _ target: FuzzTarget) -> [URL] {
        let folder = fuzzDirectory.appendingPathComponent(kind).appendingPathComponent(target.rawValue)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.sorted().map { folder.appendingPathComponent($0) }
    }

    @Test(arguments: FuzzTarget.allCases)
    func everySeedRunsCleanly(_ target: FuzzTarget) throws {
        let seeds = Self.inputs("corpus", target)
        #expect(seeds.count >= 3, "the \(target.rawValue) target needs a seed corpus in Fuzz/corpus")
        for url in seeds {
            target.run(Array(try Data(contentsOf: url)))
        }
    }

    /// The targets whose fuzzing found something; each finding's input is kept in `Fuzz/regressions/NAME`.
    static let targetsWithFindings: [FuzzTarget] = [.frames, .roomState, .bank, .bankCache, .client]

    @Test(arguments: targetsWithFindings)
    func everyPastFindingRunsCleanly(_ target: FuzzTarget) throws {
        let findings = Self.inputs("regressions", target)
        #expect(!findings.isEmpty, "Fuzz/regressions/\(target.rawValue) holds no input to replay")
        for url in findings {
            target.run(Array(try Data(contentsOf: url)))
        }
    }

    /// A regressions folder of a target missing from `targetsWithFindings` would never be replayed.
    @Test func everyRegressionsFolderIsReplayed() throws {
        let folder = Self.fuzzDirectory.appendingPathComponent("regressions")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix(".") }
        #expect(Set(names) == Set(Self.targetsWithFindings.map(\.rawValue)))
    }

    /// The written seeds (`saved-N`, from the seed writer) are usable copies: seeds the reader refuses would leave
    /// the accepting path to chance. The rest of the corpus is what fuzzing kept, refused copies included.
    @Test func theWrittenBankCacheSeedsAreUsableCopies() throws {
        let written = Self.inputs("corpus", .bankCache).filter { $0.lastPathComponent.hasPrefix("saved-") }
        #expect(written.count == 3)
        for url in written {
            let entry = BankCache.entry(from: try Data(contentsOf: url), for: BankCacheTarget.source)
            #expect(throws: Never.self, "\(url.lastPathComponent)") { try entry.get() }
        }
    }

    @Test func everySurfaceHasAnEntryPoint() throws {
        let sources = Self.fuzzDirectory.deletingLastPathComponent().appendingPathComponent("Sources/Fuzz")
        for target in FuzzTarget.allCases {
            let entry = sources.appendingPathComponent(target.rawValue).appendingPathComponent("FuzzEntry.swift")
            let text = try String(contentsOf: entry, encoding: .utf8)
            #expect(text.contains("LLVMFuzzerTestOneInput"), "\(entry.path)")
        }
    }
}
