import Foundation
import RankedSearch

extension DocumentTokens {
    /// The tokens of every searched text attribute of an item.
    ///
    /// ```swift
    /// let tokens = DocumentTokens(attributes: ["title": .string("Pear tart")], weights: .standard)
    /// tokens.count    // 2: "pear" and "tart", each in the title column
    /// ```
    init(attributes: [String: AttributeValue], weights: ColumnWeights) {
        let builder = Builder(weights: weights)
        builder.add(attributes)
        self = builder.finish()
    }
}

extension DocumentTokens.Builder {
    /// Adds the tokens of every searched text attribute, each to its
    /// column (``TextColumns/column(of:)``); a thumbnail counts toward
    /// complete metadata.
    func add(_ attributes: [String: AttributeValue]) {
        for (name, value) in attributes {
            if name == "thumbnailURL" || name == "thumbnailData" { noteThumbnail() }
            guard let column = TextColumns.column(of: name) else { continue }
            let primary = TextColumns.isPrimary(name, column: column)
            switch value {
            case .string(let text): add(text, column: column, primary: primary)
            case .strings(let texts): for text in texts { add(text, column: column, primary: primary) }
            case .url(let url): add(url.absoluteString, column: column, countsTitleWords: false)
            default: continue
            }
        }
    }
}
