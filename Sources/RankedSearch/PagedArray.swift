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
package struct PagedArray<Element: BitwiseCopyable>: Sendable where Element: Sendable {
    /// Elements per full page.
    package static var pageSize: Int { 1 << 16 }

    /// The full pages, in order, each of ``pageSize`` elements.
    private var full: [[Element]] = []
    /// The page being filled (after the full ones).
    private var current: [Element] = []
    package private(set) var count = 0

    package init() {}

    /// The pages in order; every one but the last holds ``pageSize`` elements.
    package var pages: [[Element]] { current.isEmpty ? full : full + [current] }

    @inline(__always)
    package mutating func append(_ value: Element) {
        if current.count == Self.pageSize { startPage() }
        current.append(value)
        count += 1
    }

    /// Moves the full current page out, and reserves the next whole (past
    /// the first page the size is known: never grown).
    private mutating func startPage() {
        full.append(current)
        current = []
        current.reserveCapacity(Self.pageSize)
    }

    package subscript(index: Int) -> Element {
        let page = index / Self.pageSize
        return page < full.count ? full[page][index % Self.pageSize] : current[index % Self.pageSize]
    }
}
