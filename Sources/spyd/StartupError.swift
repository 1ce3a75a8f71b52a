/// Why the host cannot start, in words a host can act on (logged as `cannot start: …`).
struct StartupError: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }
}
