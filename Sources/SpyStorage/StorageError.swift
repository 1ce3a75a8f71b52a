/// Why the rooms on disk cannot be used, in words a host can act on: the host does not start on it.
package struct StorageError: Error, CustomStringConvertible {
    package var description: String

    package init(_ description: String) {
        self.description = description
    }
}
