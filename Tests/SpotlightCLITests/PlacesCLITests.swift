import Foundation
import Testing
import TestSupport

/// `spotlight suggest places`, `search --near` and `open --action`, on the demo's apps.
@Suite(.serialized) struct PlacesCLITests {
    @Test func theStorePageIsSuggestedFoundNearbyAndNavigatedTo() throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        #expect(try cli.run("demo").status == 0)

        let places = try cli.run("suggest", "places", "--context", "Meet me at", "--json").json()
        let suggestions = try #require(places["suggestions"] as? [[String: Any]])
        #expect(suggestions.compactMap { $0["name"] as? String } == ["Ray's Fruit Emporium"])
        #expect(suggestions.first?["attribution"] as? String == "From GreenGrocer")
        let actions = try #require(suggestions.first?["actions"] as? [[String: Any]])
        #expect(actions.compactMap { $0["kind"] as? String } == ["navigate", "call"])
        let reference = try #require(suggestions.first?["reference"] as? String)
        #expect(reference.hasPrefix("\(grocer)/.activities/"))

        let text = try cli.run("suggest", "places", "--context", "see you at ray")
        #expect(text.output.hasPrefix("Ray's Fruit Emporium — 120 Mulberry Street, New York, NY 10013, United States    From GreenGrocer\n"), "\(text.output)")
        #expect(text.output.contains("· Directions to 40.7194, -73.997: geo:40.7194,-73.997"))
        #expect(try cli.run("suggest", "places", "--context", "thanks").output == "no place to suggest for \"thanks\"\n")

        // Near Canal Street: the shop is 260 m away; from Paris nothing is within 5 km.
        let near = try cli.run("search", "--near", "40.7190,-74.0000", "--within", "1", "--json", "").json()
        let results = (near["groups"] as? [[String: Any]])?.flatMap { $0["results"] as? [[String: Any]] ?? [] } ?? []
        #expect(results.compactMap { $0["title"] as? String } == ["Ray's Fruit Emporium"])
        let distance = try #require(results.first?["distance"] as? Double)
        #expect(abs(distance - 257.7) < 2, "\(distance)")
        #expect(try cli.run("search", "--near", "48.8566,2.3522", "--within", "5").output.hasPrefix("no places within 5.0 km of 48.8566,2.3522"))
        let fruit = try cli.run("search", "--near", "40.7190,-74.0000", "fruit")
        #expect(fruit.output.contains("· 257 m away"), "\(fruit.output)")
        // Several words need no quotes: they are one query, as typed in a search box.
        #expect(try cli.run("search", "mulberry", "street").output.contains("Ray's Fruit Emporium"))

        // Navigate through a recording opener: the geo: URI, and a selection of the activity.
        let recorder = cli.home.appendingPathComponent("opened.log"), script = cli.home.appendingPathComponent("open.sh")
        try Data("#!/bin/sh\nprintf '%s\\n' \"$1\" >> '\(recorder.path)'\n".utf8).write(to: script)
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: script.path)
        let opener = ["OPENSPOTLIGHT_OPEN_COMMAND": script.path]
        let done = try cli.run(["open", "--action", "navigate", reference], environment: opener)
        #expect(done.status == 0 && done.output == "Directions to 40.7194, -73.997: handed geo:40.7194,-73.997 to \(script.path)\n", "\(done.output)\(done.error)")
        let call = try cli.run(["open", "--action", "call", "--json", reference], environment: opener).json()
        #expect(call["uri"] as? String == "tel:+12125550142")
        #expect(try String(contentsOf: recorder, encoding: .utf8) == "geo:40.7194,-73.997\ntel:+12125550142\n")
    }

    @Test(arguments: [
        (["search", "--near", "91,0", "x"], "--near takes latitude,longitude in decimal degrees"),
        (["search", "--within", "3", "x"], "--within needs --near"),
        (["search", "--near", "1,2", "--within", "0", "x"], "--within takes kilometres"),
        (["search", ""], "say what to search for (or give --near to list places nearby)"),
        (["open", "--action", "teleport", "a/b/c"], "--action takes call, email, navigate or open"),
        (["open", "--action", "call", "\(grocer)/default/p-apple"], "offers no call action"),
        (["suggest", "places", "--limit", "0"], "--limit must be 1 to 50"),
    ])
    func badArgumentsSayWhatIsWrong(arguments: [String], message: String) throws {
        let cli = try CLI()
        defer { cli.cleanUp() }
        if arguments.contains("\(grocer)/default/p-apple") { #expect(try cli.run("demo").status == 0) }
        let result = try cli.run(arguments)
        #expect(result.status != 0)
        #expect(result.error.contains(message), "\(result.error)")
    }
}
