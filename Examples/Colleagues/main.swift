import ExampleApps

// The Colleagues example app: `swift run colleagues settings all`, `swift run colleagues view e07`.
ExampleApps.main(Colleagues())
