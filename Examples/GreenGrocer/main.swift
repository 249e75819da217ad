import ExampleApps

// The GreenGrocer example app: `swift run greengrocer index`, `swift run greengrocer search pear`.
ExampleApps.main(GreenGrocer())
