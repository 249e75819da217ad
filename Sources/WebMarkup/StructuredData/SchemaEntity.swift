/// A schema.org entity found on a page, from any of the three syntaxes.
///
/// Properties are flattened to dotted paths with string values, the shape
/// `spotlight markup --json` prints and the web store indexes:
/// a nested entity's properties follow its property name (`offers.price`);
/// a property with several values numbers them from 0 (`recipeIngredient.0`,
/// `recipeIngredient.1`, `offers.1.price`); a single value is not numbered.
/// Types and property names drop the schema.org prefix (`http://schema.org/Product` → `Product`).
/// A nested entity's types are `path.@type` and an identifier (`@id`, `itemid`,
/// RDFa `resource`) is the property `@id`.
///
/// ```swift
/// let entities = StructuredData.extract(from: page).entities
/// entities.first { $0.type == "Product" }?.properties["aggregateRating.ratingValue"] // "4.4"
/// ```
public struct SchemaEntity: Sendable, Hashable, Codable {
    /// How the entity was written in the page.
    public enum Syntax: String, Sendable, Hashable, Codable {
        case jsonLD = "json-ld"
        case microdata
        case rdfa
    }

    /// Every type, in the order written (`@type` may be an array, `typeof` a list).
    public var types: [String]
    public var syntax: Syntax
    /// Dotted property path → string value.
    public var properties: [String: String]

    /// The first type, or `""` when the entity has none.
    public var type: String { types.first ?? "" }

    public init(types: [String], syntax: Syntax, properties: [String: String]) {
        self.types = types
        self.syntax = syntax
        self.properties = properties
    }
}
