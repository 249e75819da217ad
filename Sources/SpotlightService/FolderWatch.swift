import Foundation
import Synchronization

/// Tells whether anything changed in a few folders since it was last
/// asked, without asking the file system each time: one inotify
/// descriptor, read without blocking when asked.
///
/// A resident system search looked at the registry's folder, each app's
/// folder and each store's file on every keystroke (a listing and ~60
/// `lstat`s over 20 apps: ~0.7M instructions of a ~5M keystroke, and the
/// system calls on top). With a watch it does so only after an event: a
/// manifest written or removed, an app folder made or removed, a store
/// file (`*.sqlite`) made, removed or renamed in an app's folder. Writes
/// inside a store (its WAL, its segments' folder) send no event it asks
/// for: SQLite shows every committed write to every read anyway.
///
/// inotify queues an event before the call that made the change returns,
/// so a search that starts after a store was replaced sees the event. A
/// queue that overflowed, a watched folder removed, or a watch that could
/// not be added counts as a change. Where inotify is missing (or its
/// per-user limits are reached), ``init()`` fails and the caller checks
/// the file system every time, as before.
///
/// ```swift
/// let watch = FolderWatch()
/// watch?.watch(registryFolder)
/// let seen = watch?.generation()          // before looking
/// // … look at the folders …
/// if watch?.generation() == seen { /* nothing changed since */ }
/// ```
final class FolderWatch: Sendable {
    private struct State {
        /// Watch descriptor → the folder, and whether only store files' names count there.
        var watches: [Int32: (folder: String, storesOnly: Bool)] = [:]
        var watched: Set<String> = []
        /// Bumped by every event that counts.
        var generation: UInt64 = 0
    }

    private let descriptor: Int32
    private let state = Mutex(State())

    /// Events that make, remove or rename a name in a folder, or remove the folder itself…
    private static let mask = UInt32(IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_DELETE_SELF | IN_MOVE_SELF)
    /// …and, in a folder of files read whole (manifests), one written in place.
    private static let writtenMask = mask | UInt32(IN_CLOSE_WRITE)

    init?() {
        let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { return nil }
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// Watches `folder` from now on (once); with `storesOnly`, only store
    /// files' names (`*.sqlite`) count there. A folder that cannot be
    /// watched (missing, the per-user limit) counts as a change every
    /// time it is asked for again.
    func watch(_ folder: String, storesOnly: Bool = false) {
        state.withLock { state in
            guard !state.watched.contains(folder) else { return }
            let wd = inotify_add_watch(descriptor, folder, (storesOnly ? Self.mask : Self.writtenMask) | UInt32(IN_ONLYDIR))
            guard wd >= 0 else {
                state.generation &+= 1
                return
            }
            state.watches[wd] = (folder, storesOnly)
            state.watched.insert(folder)
        }
    }

    /// Whether `folder` is watched now.
    func isWatching(_ folder: String) -> Bool { state.withLock { $0.watched.contains(folder) } }

    /// A number that differs from the one returned before whenever
    /// something changed in between; reads every event queued so far first.
    func generation() -> UInt64 {
        state.withLock { state in
            drain(&state)
            return state.generation
        }
    }

    private func drain(_ state: inout State) {
        withUnsafeTemporaryAllocation(byteCount: 16_384, alignment: MemoryLayout<inotify_event>.alignment) { buffer in
            while true {
                let count = read(descriptor, buffer.baseAddress, buffer.count)
                guard count > 0 else { return }   // EAGAIN: nothing more queued
                var offset = 0
                while offset + MemoryLayout<inotify_event>.size <= count {
                    let event = buffer.baseAddress!.load(fromByteOffset: offset, as: inotify_event.self)
                    let nameStart = offset + MemoryLayout<inotify_event>.size
                    let name = event.len > 0
                        ? String(cString: buffer.baseAddress!.advanced(by: nameStart).assumingMemoryBound(to: CChar.self))
                        : ""
                    offset = nameStart + Int(event.len)
                    if event.mask & UInt32(IN_Q_OVERFLOW) != 0 {
                        state.generation &+= 1
                        continue
                    }
                    guard let watch = state.watches[event.wd] else { continue }
                    if event.mask & UInt32(IN_IGNORED | IN_DELETE_SELF | IN_MOVE_SELF) != 0 {
                        // The folder itself went: asked for again, it is watched anew.
                        state.watches[event.wd] = nil
                        state.watched.remove(watch.folder)
                        state.generation &+= 1
                        continue
                    }
                    if watch.storesOnly, !name.hasSuffix(".sqlite") { continue }
                    state.generation &+= 1
                }
            }
        }
    }
}
