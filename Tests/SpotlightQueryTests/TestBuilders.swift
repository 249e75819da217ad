import Foundation
import SpotlightQuery
import TestSupport

/// Short builders for expected ASTs.
func compare(
    _ attribute: String, _ op: ComparisonOperator, _ value: QueryValue, _ modifiers: QueryModifiers = []
) -> QueryExpression {
    .comparison(Comparison(attribute: attributeNamed(attribute), op: op, value: value, modifiers: modifiers))
}

/// `*` and `**` become the any-attribute cases.
func attributeNamed(_ name: String) -> QueryAttribute {
    switch name {
    case "*": .anyAttribute
    case "**": .anyAttributeOrContent
    default: .named(name)
    }
}

/// A pattern value from elements.
func pattern(_ elements: PatternElement...) -> QueryValue {
    .pattern(QueryPattern(elements))
}

/// A wildcard-free pattern value.
func text(_ literal: String) -> QueryValue {
    .pattern(QueryPattern(literal: literal))
}

/// `.literal`, shorter.
func lit(_ text: String) -> PatternElement { .literal(text) }

func inRange(_ attribute: String, _ lower: QueryValue, _ upper: QueryValue) -> QueryExpression {
    .inRange(InRange(attribute: attributeNamed(attribute), lower: lower, upper: upper))
}

func iso(_ text: String) -> QueryValue { .time(.iso(isoDate(text))) }

extension QueryModifiers {
    static let c: QueryModifiers = .caseInsensitive
    static let d: QueryModifiers = .diacriticInsensitive
    static let w: QueryModifiers = .wordBased
    static let t: QueryModifiers = .tokenized
}

/// A small seeded generator (SplitMix64) so random tests are reproducible.
typealias SeededGenerator = SplitMix
