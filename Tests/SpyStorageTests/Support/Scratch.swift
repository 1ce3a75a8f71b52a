import Foundation

/// Directories the storage tests write in.
enum Scratch {
    /// A fresh directory under the system's temporary directory (with the umask's mode).
    static func directory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("spy-storage-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
