import Foundation
import FuzzTargets
import SpotlightIndex

#if FUZZING
/// libFuzzer's entry point: the target is `$OPENSPOTLIGHT_FUZZ_TARGET` (see `Scripts/fuzz.sh`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let target = ProcessInfo.processInfo.environment["OPENSPOTLIGHT_FUZZ_TARGET"] ?? ""
    let input = data.map { Data(bytes: $0, count: size) } ?? Data()
    do { try FuzzTargets.run(target, input) } catch { fatalError("\(error)") }
    return 0
}

// swift-format-ignore: AlwaysUseLowerCamelCase
// (libFuzzer's C entry point.)
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                         _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt

/// SwiftPM links an executable's entry point as `<module>_main`; here it hands over to libFuzzer.
@_cdecl("openspotlight_fuzz_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return withUnsafeMutablePointer(to: &count) { countPointer in
        withUnsafeMutablePointer(to: &arguments) { argumentsPointer in
            LLVMFuzzerRunDriver(countPointer, argumentsPointer, fuzzOneInput)
        }
    }
}
#else
/// Without libFuzzer: replays inputs, and writes the segment seeds.
///
/// ```sh
/// openspotlight-fuzz query Fuzz/Corpus/query/*      # each file through the query reader
/// openspotlight-fuzz segment-seeds DIR               # valid segments to start fuzzing from
/// ```
@main
struct FuzzRunner {
    static func main() throws {
        let arguments = Array(CommandLine.arguments.dropFirst())
        guard let target = arguments.first else {
            print("usage: openspotlight-fuzz TARGET FILE... | segment-seeds DIR   (targets: \(FuzzTargets.names.joined(separator: ", ")))")
            exit(2)
        }
        if target == "segment-seeds", arguments.count == 2 {
            let directory = URL(fileURLWithPath: arguments[1])
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            for (index, seed) in _SegmentFuzzing.seeds().enumerated() {
                try Data(seed).write(to: directory.appendingPathComponent("seed-\(index).seg"))
            }
            return
        }
        for file in arguments.dropFirst() {
            try FuzzTargets.run(target, try Data(contentsOf: URL(fileURLWithPath: file)))
        }
        print("\(arguments.count - 1) inputs through \(target): no failure")
    }
}
#endif
