/// A term an item's tokens must hold.
package enum TextTerm: Hashable, Sendable {
    /// A whole token.
    case word(String)
    /// A token starting with this.
    case prefix(String)
    /// Any of these whole tokens.
    case anyOf([String])
}
