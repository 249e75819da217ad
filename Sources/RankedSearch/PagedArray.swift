/// Values appended in pages of at most ``pageSize``, so a table that grows
/// to millions of entries (a large merge's term and block tables) never
/// copies itself to grow, nor holds the spare half of a doubled buffer:
/// at most one page is partly empty. The first page grows as an array does,
/// so a small table costs no more than one.
///
/// The page being filled is an array of its own beside the full ones: an
/// append touches one array, not an element of an array of arrays (a
/// merge appends to a dozen of these per term and per block, and the
/// nested access's checks were ~6% of a merge).
///
/// ```swift
/// var blocks = PagedArray<UInt32>()
/// blocks.append(127)
/// blocks[0]          // 127
/// blocks.pages       // [[127]]: what a writer copies out, page by page
/// ```
///
/// A large merge's block tables hand their full pages to a scratch file
/// (``init(spillingTo:pageSize:)``) and read them back as the segment is
/// written (the benchmark's index child: peak RSS at 1M items 133 →
/// 123–125 MB, at 10M 456 → 434 MB).
package struct PagedArray<Element: BitwiseCopyable>: Sendable where Element: Sendable {
    /// Elements per full page, unless given another size with a spill.
    package static var pageSize: Int { 1 << 16 }

    /// Elements per full page of this array.
    private let pageLength: Int
    /// Where full pages go instead of ``full`` (a large merge's block
    /// tables: ``SegmentEncoder/PostingsPart``), and where each went.
    private let spill: PostingsSpill?
    private var spilledAt: [Int] = []
    /// The full pages, in order, each of ``pageSize`` elements.
    private var full: [[Element]] = []
    /// The page being filled (after the full ones).
    private var current: [Element] = []
    package private(set) var count = 0

    package init() {
        pageLength = Self.pageSize
        spill = nil
    }

    /// An array whose full pages of `pageSize` elements are written to
    /// `spill` and read back only by ``forEachPage(_:)``: it holds one
    /// page. Its elements cannot be read by index.
    package init(spillingTo spill: PostingsSpill, pageSize: Int) {
        pageLength = max(1, pageSize)
        self.spill = spill
    }

    /// The pages in order; every one but the last holds ``pageSize`` elements.
    /// (Not for an array that spills.)
    package var pages: [[Element]] {
        precondition(spill == nil, "a spilling PagedArray is read by forEachPage")
        return current.isEmpty ? full : full + [current]
    }

    /// Calls `body` with every page in order, those in the spill read
    /// back one at a time (a failed read ends the pages early; the spill's
    /// ``PostingsSpill/check()`` says so).
    package func forEachPage(_ body: (UnsafeBufferPointer<Element>) -> Void) {
        if let spill, !spilledAt.isEmpty {
            let buffer = UnsafeMutableBufferPointer<Element>.allocate(capacity: pageLength)
            defer { buffer.deallocate() }
            for offset in spilledAt {
                guard spill.read(at: offset, into: UnsafeMutableRawBufferPointer(buffer)) else { return }
                body(UnsafeBufferPointer(buffer))
            }
        }
        for page in full { page.withUnsafeBufferPointer(body) }
        if !current.isEmpty { current.withUnsafeBufferPointer(body) }
    }

    @inline(__always)
    package mutating func append(_ value: Element) {
        if current.count == pageLength { startPage() }
        current.append(value)
        count += 1
    }

    /// Moves the full current page out (to the spill, keeping its buffer
    /// for the next), or reserves the next whole (past the first page the
    /// size is known: never grown).
    private mutating func startPage() {
        if let spill {
            spilledAt.append(spill.count)
            current.withUnsafeBytes { spill.append(raw: $0) }
            current.removeAll(keepingCapacity: true)
            return
        }
        full.append(current)
        current = []
        current.reserveCapacity(pageLength)
    }

    package subscript(index: Int) -> Element {
        precondition(spill == nil, "a spilling PagedArray is read by forEachPage")
        let page = index / pageLength
        return page < full.count ? full[page][index % pageLength] : current[index % pageLength]
    }
}
