// Microdata (WHATWG HTML, "Microdata"): top-level items are `itemscope`
// elements without `itemprop`; an item's properties are found by the standard's
// crawl — its children and the elements its `itemref` names, descending into
// every element that is not itself an item, visiting each element once — so the
// properties of a nested item never leak into the outer one, and a nested item
// (`itemscope` + `itemprop`) is only ever a property value, never a top-level
// entity. Each item becomes one SchemaGraph node (shared when `itemref` reaches
// it twice; cycles are cut when flattening).
//
// Values: `meta`→`content`; `a`/`area`/`link`→`href`; `audio`/`embed`/`iframe`/
// `img`/`source`/`track`/`video`→`src`; `object`→`data` (URLs resolved against
// the document base); `data`/`meter`→`value`; `time`→`datetime` when present;
// otherwise the text content, trimmed with whitespace runs collapsed to one space.
// Attribute values are kept as written. There is no `content` override on other
// elements (that is RDFa). `itemid` becomes the property `@id`.

import Foundation

/// The page's elements in tree order, with child lists and `id`s, so items can be
/// crawled by index (elements are values; an index is their identity).
struct IndexedElements {
    private(set) var elements: [HTMLElement] = []
    private(set) var children: [[Int]] = []
    /// `id` → the first element carrying it.
    private(set) var ids: [String: Int] = [:]

    init(_ root: HTMLElement) {
        var stack: [(element: HTMLElement, parent: Int?)] = [(root, nil)]
        while let (element, parent) = stack.popLast() {
            let index = elements.count
            elements.append(element)
            children.append([])
            if let parent { children[parent].append(index) }
            if let id = element.attribute("id"), !id.isEmpty, ids[id] == nil { ids[id] = index }
            for child in element.children.reversed() {
                if case .element(let next) = child { stack.append((next, index)) }
            }
        }
    }
}

enum MicrodataExtractor {
    static func extract(from tree: IndexedElements, base: URL?) -> (entities: [SchemaEntity], problems: [StructuredDataProblem]) {
        var builder = Builder(tree: tree, base: base)
        var roots: [Int] = []
        for (index, element) in tree.elements.enumerated() where element.hasAttribute("itemscope") && !element.hasAttribute("itemprop") {
            roots.append(builder.node(forItem: index))
        }
        builder.run()
        let kept = roots.filter { !builder.graph.nodes[$0].isEmpty }.map { ("microdata", $0) }
        let found = builder.graph.entities(kept, syntax: .microdata, noun: "item")
        return (found.entities, builder.problems + found.problems)
    }

    /// The value of a property element that is not an item.
    static func value(of element: HTMLElement, base: URL?) -> String {
        func url(_ attribute: String) -> String {
            guard let reference = element.attribute(attribute) else { return "" }
            return HTMLDocument.resolve(reference, against: base)?.absoluteString ?? ""
        }
        switch element.name {
        case "meta": return element.attribute("content") ?? ""
        case "a", "area", "link": return url("href")
        case "audio", "embed", "iframe", "img", "source", "track", "video": return url("src")
        case "object": return url("data")
        case "data", "meter": return element.attribute("value") ?? ""
        case "time":
            if let datetime = element.attribute("datetime") { return datetime }
            return StructuredText.collapsed(element.textContent)
        default: return StructuredText.collapsed(element.textContent)
        }
    }

    private struct Builder {
        let tree: IndexedElements
        let base: URL?
        var graph = SchemaGraph()
        var problems: [StructuredDataProblem] = []
        private var nodes: [Int: Int] = [:]  // item element → graph node
        private var pending: [Int] = []  // items whose properties are still to crawl
        private var steps = 0
        private var exhausted = false

        init(tree: IndexedElements, base: URL?) {
            self.tree = tree
            self.base = base
        }

        /// The graph node of the item rooted at `element`, queued for crawling when new.
        mutating func node(forItem element: Int) -> Int {
            if let node = nodes[element] { return node }
            let item = tree.elements[element]
            var node = SchemaGraph.Node()
            node.types = StructuredText.tokens(item.attribute("itemtype") ?? "").map(SchemaVocabulary.strip)
            if let id = item.attribute("itemid") {
                node.id = HTMLDocument.resolve(id, against: base)?.absoluteString
            }
            let index = graph.addNode(node)
            nodes[element] = index
            pending.append(element)
            return index
        }

        mutating func run() {
            while let item = pending.popLast() {
                guard let node = nodes[item] else { continue }
                for property in crawl(item) {
                    let element = tree.elements[property]
                    let value: SchemaGraph.Value =
                        element.hasAttribute("itemscope")
                        ? .node(self.node(forItem: property))
                        : .text(MicrodataExtractor.value(of: element, base: base))
                    var seen = Set<String>()
                    for name in StructuredText.tokens(element.attribute("itemprop") ?? "") where seen.insert(name).inserted {
                        graph.nodes[node].add(value, to: SchemaVocabulary.strip(name))
                    }
                }
            }
            if exhausted {
                problems.append(StructuredDataProblem(
                    code: StructuredDataProblem.truncatedCode,
                    message: "microdata: the page's items reach more than \(StructuredDataLimits.maximumMicrodataSteps) elements (through itemref); the rest was not read"))
            }
        }

        /// WHATWG's "crawl the properties" of an item: property elements in tree order.
        private mutating func crawl(_ item: Int) -> [Int] {
            var pending = tree.children[item]
            for reference in StructuredText.tokens(tree.elements[item].attribute("itemref") ?? "") {
                if let target = tree.ids[reference] {
                    pending.append(target)
                } else {
                    problems.append(StructuredDataProblem(
                        code: StructuredDataProblem.unresolvedItemrefCode,
                        message: "microdata: itemref \"\(reference)\" names no element id; it was ignored"))
                }
            }
            var visited: Set<Int> = [item]
            var properties: [Int] = []
            while let current = pending.popLast() {
                guard steps < StructuredDataLimits.maximumMicrodataSteps else {
                    exhausted = true
                    break
                }
                steps += 1
                guard visited.insert(current).inserted else { continue }
                let element = tree.elements[current]
                if !element.hasAttribute("itemscope") { pending += tree.children[current] }
                if !StructuredText.tokens(element.attribute("itemprop") ?? "").isEmpty { properties.append(current) }
            }
            return properties.sorted()
        }
    }
}
