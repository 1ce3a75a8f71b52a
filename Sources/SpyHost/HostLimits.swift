/// Limits and timers of the host, each settable from the command line.
package struct ServerLimits: Sendable {
    /// Seconds a new connection has to send `hello`.
    package var helloSeconds = 10
    /// Seconds of silence before the host probes a connection.
    package var pingSeconds = 30
    /// Seconds of silence before the host closes a connection.
    package var idleSeconds = 60
    /// Seconds a disconnected player's seat is kept.
    package var graceSeconds = 300
    /// Seconds an empty room opened by a client stays open.
    package var emptyRoomSeconds = 600
    /// Connections held at once, in total.
    package var maxConnections = 16_384
    /// Connections held at once from one address; 0 for no limit.
    package var maxPerAddress = 64
    /// Rooms open at once.
    package var maxRooms = 2_000
    /// Rooms opened by clients of one address that may be open at once; 0 for no limit.
    package var maxRoomsPerAddress = 4
    /// Rooms one address may open in a minute; 0 for no limit.
    package var roomsPerMinute = 10
    /// Seconds a client-opened room that nobody else ever joined stays open once empty.
    package var unusedRoomSeconds = 30
    /// Largest frame payload accepted before `hello`.
    package var maxHelloFrameBytes = 4 * 1024
    /// Bytes all connections together may hold in unfinished frames; past it the largest are cut.
    package var partialFrameBudget = 16 << 20
    /// Bad frames or refused moves per minute before a connection is closed.
    package var errorsPerMinute = 30
    /// Unsent bytes per connection before it is cut off as a slow consumer.
    package var maxOutputBytes = 1 << 20
    /// Kernel send buffer per connection in bytes; 0 leaves the system's default.
    package var socketBufferBytes = 0
    /// Milliseconds a bot waits before it moves (each wait varies from half to one and a half of it).
    package var botDelayMs = 700

    package init() {}
}
