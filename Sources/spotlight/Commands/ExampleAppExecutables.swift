import ArgumentParser
import Foundation

/// Where `spotlight demo` finds the example apps: the `colleagues` and
/// `greengrocer` executables in the folder `spotlight` itself runs from, as
/// any registered app is a program of its own. `spotlight` does not link
/// their code.
///
/// `swift run spotlight demo` (the README's first command) builds only
/// `spotlight` and what it links, so in a fresh clone the two programs are not
/// there yet. When they are missing and `spotlight` runs from a SwiftPM build
/// folder (`<package>/<scratch>/<configuration>/spotlight`, the package's
/// `Package.swift` above it), the demo builds them itself with
/// `swift build --product NAME` in the same package, scratch folder and
/// configuration, printing SwiftPM's output on standard error. An installed
/// `spotlight` with no such folder above it reports how to get them instead.
///
/// ```swift
/// let colleagues = try ExampleAppExecutables.find("colleagues", beside: URL(fileURLWithPath: "/proc/self/exe"))
/// ```
enum ExampleAppExecutables {
    /// The executable `name` beside `executable`, built first when missing and
    /// `executable` is in a SwiftPM build folder.
    static func find(_ name: String, beside executable: URL) throws -> URL {
        let folder = executable.deletingLastPathComponent()
        let app = folder.appendingPathComponent(name)
        if FileManager.default.isExecutableFile(atPath: app.path) { return app }
        guard let build = buildFolder(of: folder) else {
            throw ValidationError("""
                the example app \(name) is not beside spotlight in \(folder.path); \
                build it from the OpenSpotlight checkout with `swift build --product \(name)` and put it there
                """)
        }
        FileHandle.standardError.write(Data("spotlight demo: building the example app \(name) (swift build --product \(name))\n".utf8))
        let swift = Process()
        swift.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        swift.arguments = ["swift", "build", "--package-path", build.package.path, "--scratch-path", build.scratch.path,
                           "--configuration", build.configuration, "--product", name]
        swift.standardOutput = FileHandle.standardError
        swift.standardInput = FileHandle.nullDevice
        do { try swift.run() } catch {
            throw ValidationError("cannot run `swift build --product \(name)`: \(error.localizedDescription); build it yourself")
        }
        swift.waitUntilExit()
        guard swift.terminationStatus == 0, FileManager.default.isExecutableFile(atPath: app.path) else {
            throw ValidationError("`swift build --product \(name)` did not build \(app.path); see its output above")
        }
        return app
    }

    /// The package, scratch folder and configuration a SwiftPM build folder
    /// belongs to: `folder` is `<scratch>/<configuration>` or
    /// `<scratch>/<triple>/<configuration>`, and the scratch folder's parent
    /// holds `Package.swift`. Nil for any other folder.
    static func buildFolder(of folder: URL) -> (package: URL, scratch: URL, configuration: String)? {
        let configuration = folder.lastPathComponent
        guard configuration == "debug" || configuration == "release" else { return nil }
        for scratch in [folder.deletingLastPathComponent(), folder.deletingLastPathComponent().deletingLastPathComponent()] {
            let package = scratch.deletingLastPathComponent()
            if FileManager.default.fileExists(atPath: package.appendingPathComponent("Package.swift").path) {
                return (package, scratch, configuration)
            }
        }
        return nil
    }
}
