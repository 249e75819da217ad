import Foundation
import Testing
import SpotlightIndex
import SpotlightSystem
@testable import SpotlightService

// swift-format-ignore: IdentifiersMustBeASCII
// (φ latitude, λ longitude: the formula's own letters.)
/// The haversine distance, written out independently of the code under test.
func haversine(_ a: (Double, Double), _ b: (Double, Double)) -> Double {
    let r = 6_371_008.8, rad = Double.pi / 180
    let dφ = (b.0 - a.0) * rad, dλ = (b.1 - a.1) * rad
    let h = pow(sin(dφ / 2), 2) + cos(a.0 * rad) * cos(b.0 * rad) * pow(sin(dλ / 2), 2)
    return 2 * r * asin(h.squareRoot())
}

@Suite struct NearbySearchTests {
    /// Known distances: exact ones on the mean sphere, and city pairs whose
    /// geodesic (WGS 84) distances are published; all within 0.5%.
    @Test(arguments: [
        ((0.0, 0.0), (1.0, 0.0), 111_195.0),            // a degree of a meridian
        ((0.0, 0.0), (0.0, 1.0), 111_195.0),            // a degree of the equator
        ((0.0, 0.0), (90.0, 0.0), 10_007_543.0),        // equator to pole
        ((0.0, 0.0), (0.0, 180.0), 20_015_087.0),       // antipodes
        ((51.5074, -0.1278), (48.8566, 2.3522), 343_500.0),      // London–Paris
        ((40.7128, -74.0060), (34.0522, -118.2437), 3_944_000.0), // New York–Los Angeles
        ((-33.8688, 151.2093), (51.5074, -0.1278), 16_990_000.0), // Sydney–London
        ((40.7194, -73.997), (40.7194, -73.997), 0.0),
    ])
    func distancesAreGreatCircleDistances(a: (Double, Double), b: (Double, Double), expected: Double) throws {
        let here = try #require(GeoPoint(latitude: a.0, longitude: a.1)), there = try #require(GeoPoint(latitude: b.0, longitude: b.1))
        let distance = here.distance(to: there)
        #expect(abs(distance - expected) <= max(1e-6, expected * 0.005), "\(distance) m, expected \(expected)")
        #expect(abs(distance - haversine(a, b)) <= max(1e-6, expected * 1e-9))
        #expect(abs(distance - there.distance(to: here)) < 1e-6)
    }

    @Test(arguments: [("40.7194,-73.997", true), (" 48.8566 , 2.3522 ", true), ("91,0", false), ("0,180.5", false),
                      ("nan,0", false), ("1,2,3", false), ("abc", false), ("", false), ("1;2", false)])
    func placesParse(text: String, valid: Bool) {
        #expect((GeoPoint(parsing: text) != nil) == valid)
    }

    func place(_ id: String, _ title: String, _ latitude: Double?, _ longitude: Double?) -> SearchableItem {
        var attributes: [String: AttributeValue] = ["title": .string(title)]
        if let latitude, let longitude {
            attributes["latitude"] = .number(.double(latitude))
            attributes["longitude"] = .number(.double(longitude))
        }
        return SearchableItem(uniqueIdentifier: id, attributes: attributes)
    }

    static let here = GeoPoint(latitude: 40.7194, longitude: -73.997)!

    /// Two apps: shops around Mulberry Street, one without coordinates, one far away.
    func shops() throws -> ServiceRoot {
        let root = try ServiceRoot()
        try root.registry.register(app("com.example.grocer", "Grocer"))
        try root.registry.register(app("com.example.cafes", "Cafés"))
        try root.store("com.example.grocer").index([
            place("g-near", "Fruit stand Mulberry", 40.7197, -73.9968),      // ~40 m
            place("g-mid", "Fruit market Chelsea", 40.7424, -74.0060),       // ~2.6 km
            place("g-far", "Fruit farm Albany", 42.6526, -73.7562),          // ~216 km
            place("g-none", "Fruit delivery service", nil, nil),
        ])
        try root.store("com.example.cafes").index([place("c-near", "Fruit café Grand Street", 40.7187, -73.9960)])   // ~110 m
        return root
    }

    /// A word typed wrong near a place finds what it meant, nearest first,
    /// as it does anywhere (typos: every app together found few exact matches).
    @Test func aTypoNearAPlaceFindsWhatItMeant() throws {
        let root = try shops()
        defer { root.cleanUp() }
        let found = try SystemSearch(registry: root.registry).search("mulbery", resultsPerApp: 10, near: SearchArea(center: Self.here))
        #expect(found.groups.flatMap(\.results).map(\.reference.itemIdentifier) == ["g-near"])
        #expect(found.groups.flatMap(\.results).allSatisfy { $0.typos && $0.distance != nil })
    }

    @Test func nearerPlacesRankHigherAndCarryTheirDistance() throws {
        let root = try shops()
        defer { root.cleanUp() }
        let search = SystemSearch(registry: root.registry)
        let plain = try search.search("fruit", resultsPerApp: 10)
        let near = try search.search("fruit", resultsPerApp: 10, near: SearchArea(center: Self.here))
        let grocer = try #require(near.groups.first { $0.app.bundleIdentifier == "com.example.grocer" })
        #expect(grocer.results.map(\.reference.itemIdentifier) == ["g-near", "g-mid", "g-far", "g-none"])
        for result in near.groups.flatMap(\.results) {
            let before = try #require(plain.groups.flatMap(\.results).first { $0.reference == result.reference })
            guard let point = result.coordinate else {
                #expect(result.distance == nil && result.score == before.score, "no coordinates: unchanged")
                continue
            }
            let expected = haversine((Self.here.latitude, Self.here.longitude), (point.latitude, point.longitude))
            let distance = try #require(result.distance)
            #expect(abs(distance - expected) <= expected * 0.005)
            #expect(abs(result.score - before.score * SearchArea.factor(distance: distance)) <= 1e-9 * result.score)
        }
        #expect(SearchArea.factor(distance: 0) == 2 && SearchArea.factor(distance: SearchArea.decayDistance) == 1.5)
    }

    @Test func aRadiusKeepsOnlyWhatIsInside() throws {
        let root = try shops()
        defer { root.cleanUp() }
        let search = SystemSearch(registry: root.registry)
        let ids = { (radius: Double) in
            try search.search("fruit", resultsPerApp: 10, near: SearchArea(center: Self.here, radius: radius)).groups
                .flatMap(\.results).map(\.reference.itemIdentifier).sorted()
        }
        #expect(try ids(100) == ["g-near"])
        #expect(try ids(1_000) == ["c-near", "g-near"])
        #expect(try ids(5_000) == ["c-near", "g-mid", "g-near"])
        #expect(try ids(300_000) == ["c-near", "g-far", "g-mid", "g-near"], "never the one without coordinates")
    }

    @Test func anEmptyQueryListsPlacesNearestFirst() throws {
        let root = try shops()
        defer { root.cleanUp() }
        let search = SystemSearch(registry: root.registry)
        let found = try search.search("", resultsPerApp: 10, near: SearchArea(center: Self.here, radius: 5_000))
        #expect(found.groups.map(\.app.displayName) == ["Grocer", "Cafés"])
        #expect(found.groups[0].results.map(\.reference.itemIdentifier) == ["g-near", "g-mid"])
        #expect(found.web.isEmpty)
        let everywhere = try search.search("", resultsPerApp: 10, near: SearchArea(center: Self.here))
        #expect(everywhere.groups.flatMap(\.results).count == 3, "50 km by default: Albany is 216 km away")
    }

    /// Only empty text browses what is near: text of no words (punctuation)
    /// asks for something that nothing matches, near a place or not.
    @Test(arguments: ["!!!", "?", "-- --"])
    func textOfNoWordsNearAPlaceFindsNothing(text: String) throws {
        let root = try shops()
        defer { root.cleanUp() }
        let search = SystemSearch(registry: root.registry)
        #expect(try search.search(text, resultsPerApp: 10, near: SearchArea(center: Self.here, radius: 5_000)).groups.isEmpty)
        #expect(try search.search(text, resultsPerApp: 10).groups.isEmpty)
        #expect(try search.search("", resultsPerApp: 10, near: SearchArea(center: Self.here, radius: 5_000)).groups.count == 2)
    }

    /// The bounding box of a browse crosses the antimeridian and the poles correctly.
    @Test func browsingWorksAcrossTheAntimeridianAndNearThePoles() throws {
        let root = try ServiceRoot()
        defer { root.cleanUp() }
        try root.registry.register(app("com.example.islands", "Islands"))
        try root.store("com.example.islands").index([
            place("east", "Taveuni east", -16.8, 179.99), place("west", "Taveuni west", -16.8, -179.99),
            place("pole", "Amundsen–Scott", -89.99, 139.27), place("far", "Suva", -18.14, 178.44),
        ])
        let search = SystemSearch(registry: root.registry)
        let fiji = try search.search("", resultsPerApp: 10, near: SearchArea(center: GeoPoint(latitude: -16.8, longitude: 179.995)!, radius: 10_000))
        #expect(fiji.groups.flatMap(\.results).map(\.reference.itemIdentifier).sorted() == ["east", "west"])
        let pole = try search.search("", resultsPerApp: 10, near: SearchArea(center: GeoPoint(latitude: -90, longitude: 0)!, radius: 10_000))
        #expect(pole.groups.flatMap(\.results).map(\.reference.itemIdentifier) == ["pole"])
    }

    /// The query language's ranges on coordinates stay exact (no rounding, inclusive bounds).
    @Test func coordinateRangesInTheQueryLanguageAreExact() throws {
        let root = try shops()
        defer { root.cleanUp() }
        let store = try root.store("com.example.grocer")
        let table: [(String, [String])] = [
            ("InRange(latitude, 40.7, 40.75) && InRange(longitude, -74.01, -73.99)", ["g-mid", "g-near"]),
            ("InRange(latitude, 40.7197, 40.7197) && InRange(longitude, -73.9968, -73.9968)", ["g-near"]),
            ("InRange(latitude, 40.71970001, 41) && InRange(longitude, -75, -73)", ["g-mid"]),
            ("latitude > 42 || longitude > -73.997", ["g-far", "g-near"]),
        ]
        for (query, expected) in table {
            #expect(try store.items(matching: query).map(\.uniqueIdentifier).sorted() == expected, "\(query)")
        }
    }
}
