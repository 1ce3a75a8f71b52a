import Foundation
import Glibc
import SpyNet
import Testing

/// Every limit of a whole-file read has a case that hits it, and nothing there makes it wait.
@Suite struct BoundedFileTests {
    let directory: String

    init() throws {
        directory = NSTemporaryDirectory() + "bounded-file-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    @Test func aFileUpToTheLimitIsReadAndOneByteMoreIsNot() throws {
        let path = directory + "/file"
        try Data(repeating: 7, count: 100).write(to: URL(fileURLWithPath: path))
        #expect(try BoundedFile.read(path, maxBytes: 100).get() == [UInt8](repeating: 7, count: 100))
        #expect(BoundedFile.read(path, maxBytes: 99) == .failure(.tooLarge(limit: 99)))
        // Past one read's chunk, too.
        try Data(repeating: 1, count: 200_000).write(to: URL(fileURLWithPath: path))
        #expect(try BoundedFile.read(path, maxBytes: 200_000).get().count == 200_000)
        #expect(BoundedFile.read(path, maxBytes: 150_000) == .failure(.tooLarge(limit: 150_000)))
    }

    @Test func nothingADirectoryAndAFIFOAreRefusedWithoutWaiting() throws {
        #expect(BoundedFile.read(directory + "/absent", maxBytes: 10) == .failure(.missing))
        #expect(BoundedFile.read(directory, maxBytes: 10) == .failure(.notRegularFile(directory: true)))
        let fifo = directory + "/fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        // Without O_NONBLOCK this open would wait for a writer forever.
        #expect(BoundedFile.read(fifo, maxBytes: 10) == .failure(.notRegularFile(directory: false)))
    }

    @Test func aSymlinkIsFollowedOnlyWhenAsked() throws {
        let target = directory + "/target"
        try Data("x".utf8).write(to: URL(fileURLWithPath: target))
        let link = directory + "/link"
        #expect(symlink(target, link) == 0)
        #expect(try BoundedFile.read(link, maxBytes: 10).get() == Array("x".utf8))
        #expect(BoundedFile.read(link, maxBytes: 10, followingLinks: false) == .failure(.unreadable(code: ELOOP)))
    }
}
