import Foundation
import Glibc
import SpyNet
import Testing

/// A file replaced atomically is never written through a link planted at its temporary name, and a temporary
/// file a crash left is replaced.
@Suite struct AtomicFileTests {
    private func directory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("atomic-file-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func aPlantedSymlinkIsNeverWrittenThrough() throws {
        let directory = try directory()
        let target = directory.appendingPathComponent("victim").path
        try "precious".write(toFile: target, atomically: true, encoding: .utf8)
        let path = directory.appendingPathComponent("room-KFRW.json").path
        symlink(target, path + ".tmp")
        try AtomicFile.write(Array("new".utf8), to: path)
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "precious")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "new")
        var info = stat()
        #expect(lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG)
    }

    @Test func aStaleTemporaryFileFromACrashIsReplaced() throws {
        let directory = try directory()
        let path = directory.appendingPathComponent("port").path
        try "half-writ".write(toFile: path + ".tmp", atomically: false, encoding: .utf8)
        try AtomicFile.write(Array("7777\n".utf8), to: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "7777\n")
        #expect(!FileManager.default.fileExists(atPath: path + ".tmp"))
    }
}
