// The document tree WebMarkup reads: built once from libxml2's HTML parser
// (`HTMLDocument.parse`), then immutable and `Sendable`. Every extractor —
// page metadata, JSON-LD, microdata, RDFa Lite — walks this tree, never libxml2.

/// One attribute of an element, as written (names lower-cased by the parser).
public struct HTMLAttribute: Sendable, Hashable {
    public var name: String
    public var value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// A child of an element: another element or a run of text (entities decoded,
/// except inside `<script>` and `<style>`, whose text is kept raw).
public enum HTMLContent: Sendable, Hashable {
    case element(HTMLElement)
    case text(String)
}

/// An element of a parsed page.
///
/// ```swift
/// let page = try HTMLDocument.parse("<p id=a>Hi <b>there</b></p>")
/// page.root.first(named: "p")?.textContent // "Hi there"
/// ```
public struct HTMLElement: Sendable, Hashable {
    /// The tag name, lower-case (`meta`, `script`).
    public var name: String
    /// Attributes in document order; a repeated name keeps its first value, as browsers do.
    public var attributes: [HTMLAttribute]
    public var children: [HTMLContent]

    public init(name: String, attributes: [HTMLAttribute] = [], children: [HTMLContent] = []) {
        self.name = name
        self.attributes = attributes
        self.children = children
    }

    /// The value of the attribute `name` (case-insensitive), or `nil` when absent.
    public func attribute(_ name: String) -> String? {
        let lowered = name.lowercased()
        return attributes.first { $0.name == lowered }?.value
    }

    /// Whether the attribute is present, whatever its value (`itemscope`).
    public func hasAttribute(_ name: String) -> Bool {
        attribute(name) != nil
    }

    /// The child elements, in order.
    public var elements: [HTMLElement] {
        children.compactMap { if case .element(let element) = $0 { element } else { nil } }
    }

    /// All descendant text, concatenated in document order.
    public var textContent: String {
        var result = ""
        appendText(to: &result)
        return result
    }

    private func appendText(to result: inout String) {
        for child in children {
            switch child {
            case .text(let text): result += text
            case .element(let element): element.appendText(to: &result)
            }
        }
    }

    /// The first descendant (or self) named `name`, depth-first in document order.
    public func first(named name: String) -> HTMLElement? {
        var found: HTMLElement?
        walk { element, _ in
            if found == nil, element.name == name { found = element }
            return found == nil
        }
        return found
    }

    /// Every descendant (and self) named `name`, in document order.
    public func all(named name: String) -> [HTMLElement] {
        var found: [HTMLElement] = []
        walk { element, _ in
            if element.name == name { found.append(element) }
            return true
        }
        return found
    }

    /// Visits self and every descendant element in document order with its
    /// ancestors' names (outermost first). Return `false` to stop the walk.
    /// Iterative, so any depth the parser produced is safe.
    public func walk(_ visit: (HTMLElement, _ ancestors: [String]) -> Bool) {
        var stack: [(HTMLElement, Int)] = [(self, 0)]
        var ancestors: [String] = []
        while let (element, depth) = stack.popLast() {
            ancestors.removeSubrange(depth...)
            if !visit(element, ancestors) { return }
            ancestors.append(element.name)
            for child in element.children.reversed() {
                if case .element(let next) = child { stack.append((next, depth + 1)) }
            }
        }
    }
}
