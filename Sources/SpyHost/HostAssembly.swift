import SpyBank
import SpyGame
import SpyProtocol
import SpyWeb

extension HostCore {
    /// The host's core as every host builds it: `spyd`, the in-process harness and the end-to-end tests alike.
    ///
    /// The core deals from `bank` through one `BankChoices`, so a choice of language, categories and party pairs
    /// is checked and drawn from the same offer, worked out once; the bank's categories go in every `welcome`.
    /// What differs between hosts is only what the shell owns: the journal, the names the web routes answer to,
    /// where tokens and seeds come from, and the time.
    package static func assemble(
        config: HostConfiguration, bank: [WordPair], log: HostLog, kept: KeptRooms?, webSite: WebSite,
        randomness: HostRandomness, at time: HostTime
    ) -> HostCore {
        let choices = BankChoices(bank: bank)
        return HostCore(
            config: config, bank: bank, pairsFor: { choices.pairs(for: $0) }, log: log, kept: kept,
            webSite: webSite, randomness: randomness, at: time,
            categories: BankCatalog.categories(of: bank), choiceProblem: { choices.problem(for: $0) })
    }
}
