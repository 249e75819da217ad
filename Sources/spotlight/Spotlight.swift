import ArgumentParser

/// The `spotlight` command: OpenSpotlight from a terminal.
@main
struct Spotlight: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "spotlight",
        abstract: "Apple's app search (Core Spotlight) for Linux: search every app's content as you type, open results in the app.",
        discussion: """
            Stores live under $OPENSPOTLIGHT_HOME, else $XDG_DATA_HOME/openspotlight, \
            else ~/.local/share/openspotlight: one per app and index name.

            Start with:  spotlight demo
            """,
        subcommands: [Demo.self, Search.self, Open.self, Serve.self, Install.self, Uninstall.self, Query.self, Show.self, Explain.self, Import.self, Export.self, IndexFile.self, Delete.self, Stats.self, Apps.self, Maintain.self, Suggest.self, Markup.self, Links.self, Validate.self, Crawl.self, WebIndex.self, Public.self]
    )
}
