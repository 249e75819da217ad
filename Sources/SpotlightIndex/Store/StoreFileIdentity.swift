import Foundation

/// Which file an app's index is on disk now: its device and inode.
///
/// A store replaced on disk (lost and made anew, moved aside as damaged,
/// deleted and indexed again by another process) has a new identity, so a
/// handle kept from before can tell it reads a file that is no longer the
/// store, and open the new one.
///
/// ```swift
/// let before = StoreFileIdentity(bundleIdentifier: "com.example.notes", indexName: "default", location: .automatic)
/// // … another process removes the store and indexes again …
/// let after = StoreFileIdentity(bundleIdentifier: "com.example.notes", indexName: "default", location: .automatic)
/// if before != after { /* open the store again */ }
/// ```
///
/// The link itself is examined (`lstat`), never what it points to. Two
/// identities are equal only while the first file is still open somewhere
/// (an open file's inode is not reused), which a kept handle guarantees.
public struct StoreFileIdentity: Hashable, Sendable {
    /// The device holding the file.
    public let device: UInt64
    /// The file's inode on that device.
    public let inode: UInt64

    /// The identity of `<root>/<bundle identifier>/<index name>.sqlite` as it
    /// is now; nil when there is no such file (or the store is in memory).
    public init?(bundleIdentifier: String, indexName: String, location: StoreLocation) {
        guard let file = location.filePath(of: bundleIdentifier, index: indexName) else { return nil }
        var status = stat()
        guard lstat(file, &status) == 0 else { return nil }
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
    }
}
