import Testing

extension Tag {
    /// A test of what only the shell around the host's core does, so it needs real sockets or a real process:
    /// accepting, flushing and closing, WebSocket and HTTP framing, discovery, the start and exit of `spyd`,
    /// signals, `kill -9`, and the disk under the journal. The host's rules are tested on `CoreHost`.
    @Tag static var shell: Self
    /// A whole game played end to end over real sockets, by a terminal player or a browser.
    @Tag static var endToEnd: Self
}
