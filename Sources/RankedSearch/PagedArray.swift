/// Values appended in pages of at most ``pageSize``, so a table that grows
/// to millions of entries (a large merge's term and block tables) never
/// copies itself to grow, nor holds the spare half of a doubled buffer:
/// at most one page is partly empty. The first page grows as an array does,
/// so a small table costs no more than one.
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

    /// The pages in order; every one but the last holds ``pageSize`` elements.
    package private(set) var pages: [[Element]] = []
    package private(set) var count = 0

    package init() {}

    package mutating func append(_ value: Element) {
        if pages.isEmpty || pages[pages.count - 1].count == Self.pageSize {
            var page: [Element] = []
            // Past the first page the size is known: reserved whole, never grown.
            if !pages.isEmpty { page.reserveCapacity(Self.pageSize) }
            pages.append(page)
        }
        pages[pages.count - 1].append(value)
        count += 1
    }

    package subscript(index: Int) -> Element {
        pages[index / Self.pageSize][index % Self.pageSize]
    }
}
