public import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A PostgreSQL cluster of our own under a directory, made and run with
/// Debian's `initdb` and `pg_ctl` (PostgreSQL 15, `/usr/lib/postgresql/15/bin`):
/// what `spotlight public serve` runs when given no `--postgres` URL, and what
/// the tests start as throwaway servers.
///
/// ```swift
/// let cluster = try LocalCluster(directory: dataDirectory.appendingPathComponent("postgres"))
/// try cluster.start()            // initdb the first time; listens on 127.0.0.1 only
/// let url = cluster.url          // postgres://spotlight:…@127.0.0.1:<port>/public_index
/// defer { try? cluster.stop() }
/// ```
///
/// - Listens on loopback only (no Unix socket), on the port given or a free one.
/// - Its one role `spotlight` logs in with a password (SCRAM) generated at
///   `initdb` and kept in `<directory>/password`, readable by its owner only.
/// - PostgreSQL refuses to run as root: run as root, the cluster belongs to
///   and runs as the system user ``serverUser`` (created if missing), through `runuser`.
public final class LocalCluster: Sendable {
    /// The cluster's directory: `data/` (PGDATA), `password`, `postgres.log`.
    public let directory: URL
    public let port: Int
    /// The database the public index uses.
    public let database: String
    /// Faster, not crash-safe (`fsync=off`): for throwaway test clusters only.
    public let throwaway: Bool
    /// The role the index connects as.
    public static let role = "spotlight"
    /// The system user a cluster runs as when the caller is root.
    public static let serverUser = "openspotlight"

    /// - Parameters:
    ///   - port: a loopback port, or nil for a free one (chosen now).
    ///   - throwaway: `fsync=off`, small buffers: for tests.
    public init(directory: URL, port: Int? = nil, database: String = "public_index", throwaway: Bool = false) throws {
        self.directory = directory
        self.database = database
        self.throwaway = throwaway
        if let port {
            self.port = port
        } else if let recorded = try? String(contentsOf: directory.appendingPathComponent("port"), encoding: .utf8),
                  let number = Int(recorded.trimmingCharacters(in: .whitespacesAndNewlines)) {
            self.port = number
        } else {
            self.port = try Self.freeLoopbackPort()
        }
    }

    public var dataDirectory: URL { directory.appendingPathComponent("data") }
    var passwordFile: URL { directory.appendingPathComponent("password") }
    var logFile: URL { directory.appendingPathComponent("postgres.log") }

    /// The URL to connect with (password included).
    public var url: PostgresURL {
        PostgresURL(host: "127.0.0.1", port: port, user: Self.role, password: try? password(), database: database)
    }

    func password() throws -> String {
        try String(contentsOf: passwordFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    // MARK: - Life cycle

    /// Creates the cluster if it has no data yet, then starts it and makes
    /// sure the database exists. Returns when it accepts connections.
    /// - Throws: ``PublicIndexError`` `.cluster` with what the tool printed.
    public func start() throws {
        let binaries = try Self.binaries()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Self.chmod(directory, 0o700)
        if !FileManager.default.fileExists(atPath: dataDirectory.appendingPathComponent("PG_VERSION").path) {
            try initialize(binaries)
        }
        try String(port).write(to: directory.appendingPathComponent("port"), atomically: true, encoding: .utf8)
        var options = "-c listen_addresses=127.0.0.1 -p \(port) -c unix_socket_directories='' -c max_connections=100"
        // fsync off survives a killed server (not a crashed machine); synchronous_commit stays on, or a kill loses acknowledged commits.
        if throwaway { options += " -c fsync=off -c full_page_writes=off -c shared_buffers=32MB" }
        try run(binaries.appendingPathComponent("pg_ctl"),
                ["-D", dataDirectory.path, "-l", logFile.path, "-o", options, "-w", "-t", "60", "start"], as: owner)
        try createDatabase(binaries)
    }

    /// Stops the cluster (`fast`: open sessions are ended, data is kept).
    public func stop() throws {
        guard isRunning else { return }
        try run(try Self.binaries().appendingPathComponent("pg_ctl"), ["-D", dataDirectory.path, "-m", "fast", "-w", "-t", "60", "stop"], as: owner)
    }

    /// Stops the cluster at once, as a crash would (`immediate`): for fault tests.
    public func kill() throws {
        guard isRunning else { return }
        try run(try Self.binaries().appendingPathComponent("pg_ctl"), ["-D", dataDirectory.path, "-m", "immediate", "-w", "stop"], as: owner)
    }

    /// True while its postmaster runs.
    public var isRunning: Bool {
        guard let binaries = try? Self.binaries() else { return false }
        return (try? run(binaries.appendingPathComponent("pg_ctl"), ["-D", dataDirectory.path, "status"], as: owner)) != nil
    }

    /// Stops the cluster if it runs and deletes its directory.
    public func destroy() {
        try? kill()
        try? FileManager.default.removeItem(at: directory)
    }

    // MARK: - Creating

    func initialize(_ binaries: URL) throws {
        let password = HexText.random(bytes: 24)
        try FileManager.default.createDirectory(at: dataDirectory, withIntermediateDirectories: true)
        try Self.chmod(dataDirectory, 0o700)
        let pwfile = directory.appendingPathComponent("initdb-password")
        try password.write(to: pwfile, atomically: false, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: pwfile) }
        try Self.chmod(pwfile, 0o600)
        if let owner {
            try Self.ensureUser(owner)
            for path in [directory, dataDirectory, pwfile] { try run(URL(fileURLWithPath: "/bin/chown"), [owner, path.path], as: nil) }
            do {
                try run(URL(fileURLWithPath: "/usr/bin/test"), ["-w", dataDirectory.path], as: owner)
            } catch {
                throw PublicIndexError(.cluster, "the system user \(owner) cannot reach \(dataDirectory.path): a directory above it is closed to other users; give them search permission (chmod o+x) or choose another data directory")
            }
        }
        try run(binaries.appendingPathComponent("initdb"),
                ["-D", dataDirectory.path, "-U", Self.role, "--pwfile", pwfile.path, "-E", "UTF8", "--locale=C.UTF-8",
                 "--auth-host=scram-sha-256", "--auth-local=peer"] + (throwaway ? ["--no-sync"] : []), as: owner)
        try password.write(to: passwordFile, atomically: true, encoding: .utf8)
        try Self.chmod(passwordFile, 0o600)
    }

    func createDatabase(_ binaries: URL) throws {
        let environment = ["PGPASSWORD": try password()]
        let psql = binaries.appendingPathComponent("psql")
        let common = ["-X", "-q", "-h", "127.0.0.1", "-p", String(port), "-U", Self.role, "-v", "ON_ERROR_STOP=1"]
        let exists = try run(psql, common + ["-d", "postgres", "-tAc", "SELECT 1 FROM pg_database WHERE datname = '\(database)'"],
                             as: nil, environment: environment)
        if exists.trimmingCharacters(in: .whitespacesAndNewlines) != "1" {
            _ = try run(psql, common + ["-d", "postgres", "-c", "CREATE DATABASE \"\(database)\""], as: nil, environment: environment)
        }
    }

    /// The user the server runs as: nil when we are not root.
    var owner: String? { geteuid() == 0 ? Self.serverUser : nil }

    static func ensureUser(_ user: String) throws {
        if getpwnam(user) != nil { return }
        do {
            try run(URL(fileURLWithPath: "/usr/sbin/useradd"),
                    ["--system", "--no-create-home", "--home-dir", "/nonexistent", "--shell", "/usr/sbin/nologin", user], as: nil)
        } catch {
            if getpwnam(user) == nil { throw error }  // another process made it meanwhile
        }
    }

    // MARK: - Tools

    /// Debian's PostgreSQL binaries: `$OPENSPOTLIGHT_PG_BIN`, else the newest
    /// `/usr/lib/postgresql/<version>/bin` (15 on Debian 12).
    public static func binaries() throws -> URL {
        if let forced = ProcessInfo.processInfo.environment["OPENSPOTLIGHT_PG_BIN"], !forced.isEmpty {
            return URL(fileURLWithPath: forced)
        }
        let root = "/usr/lib/postgresql"
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []).compactMap(Int.init).sorted()
        for version in versions.reversed() {
            let bin = URL(fileURLWithPath: "\(root)/\(version)/bin")
            if FileManager.default.isExecutableFile(atPath: bin.appendingPathComponent("initdb").path) { return bin }
        }
        throw PublicIndexError(.cluster, "PostgreSQL's server is not installed (no \(root)/*/bin/initdb); install Debian's postgresql package, or pass --postgres URL")
    }

    /// A port on 127.0.0.1 that nothing listens on now.
    public static func freeLoopbackPort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw PublicIndexError(.cluster, "cannot open a socket to find a free port") }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0 }
        }
        guard bound else { throw PublicIndexError(.cluster, "cannot bind a loopback socket to find a free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    static func chmod(_ url: URL, _ mode: Int) throws {
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: url.path)
    }

    @discardableResult
    func run(_ tool: URL, _ arguments: [String], as user: String?, environment: [String: String] = [:]) throws -> String {
        try Self.run(tool, arguments, as: user, environment: environment)
    }

    /// Runs a tool (as `user` through `runuser` when given) and returns what it printed.
    ///
    /// Spawned with `posix_spawn`, every descriptor above standard error
    /// closed in the child, and reaped with `waitpid`: the server that
    /// `pg_ctl start` leaves running must inherit nothing of ours (Foundation's
    /// `Process` notices an exit through a descriptor the server would keep open).
    @discardableResult
    static func run(_ tool: URL, _ arguments: [String], as user: String?, environment: [String: String] = [:]) throws -> String {
        let argv = user.map { ["/usr/sbin/runuser", "-u", $0, "--", tool.path] } ?? [tool.path]
        var variables = ProcessInfo.processInfo.environment
        variables["LC_ALL"] = "C.UTF-8"
        for (key, value) in environment { variables[key] = value }
        let outputFile = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("openspotlight-tool-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: outputFile) }
        let status = try spawnAndWait(argv + arguments, environment: variables.map { "\($0.key)=\($0.value)" }, output: outputFile.path)
        let text = String(decoding: (try? Data(contentsOf: outputFile)) ?? Data(), as: UTF8.self)
        guard status == 0 else {
            throw PublicIndexError(.cluster, "\(tool.lastPathComponent) \(arguments.first ?? "") failed (exit \(status)): \(text.suffix(600))")
        }
        return text
    }

    /// posix_spawn + waitpid; the child's output goes to `output`, its input is /dev/null.
    /// Its errors go there too, or to `errors` when given. (Also the service benchmark's way
    /// to run a command per keystroke: a Foundation `Process` took ~50 ms a spawn here,
    /// measured with `/bin/true`, as long as the searches it was to time.)
    package static func spawnAndWait(_ arguments: [String], environment: [String], output: String, errors: String? = nil) throws -> Int32 {
        try spawnAndMeasure(arguments, environment: environment, output: output, errors: errors).status
    }

    /// ``spawnAndWait(_:environment:output:errors:)``, with the child's own
    /// peak resident memory in kilobytes (its `ru_maxrss`, from `wait4`:
    /// `getrusage(RUSAGE_CHILDREN)` gives the largest of every child
    /// waited for so far, a service stopped before included).
    package static func spawnAndMeasure(_ arguments: [String], environment: [String], output: String,
                                        errors: String? = nil) throws -> (status: Int32, peakKilobytes: Int) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        if let errors {
            posix_spawn_file_actions_addopen(&actions, 2, errors, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        } else {
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        }
        // glibc's posix_spawn_file_actions_addclosefrom_np (2.34+), which Swift's Glibc module does not declare.
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else {
            throw PublicIndexError(.cluster, "this C library cannot close descriptors in a spawned child (glibc 2.34 or later is needed)")
        }
        _ = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, 3)
        func cStrings(_ strings: [String]) -> [UnsafeMutablePointer<CChar>?] { strings.map { strdup($0) } + [nil] }
        let argv = cStrings(arguments)
        let envp = cStrings(environment)
        defer { for pointer in argv + envp { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, arguments[0], &actions, nil, argv, envp)
        guard spawned == 0 else {
            throw PublicIndexError(.cluster, "cannot run \(arguments[0]): \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) == -1 {
            guard errno == EINTR else { throw PublicIndexError(.cluster, "lost track of \(arguments[0]) (wait4: \(errno))") }
        }
        // WIFEXITED / WEXITSTATUS, spelled out (C macros).
        return ((status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f), usage.ru_maxrss)
    }
}

/// Random lowercase hex.
enum HexText {
    static func random(bytes count: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        let digits = Array("0123456789abcdef")
        return String((0..<count * 2).map { _ in digits[Int.random(in: 0..<16, using: &generator)] })
    }
}

extension LocalCluster {
    /// Runs one of PostgreSQL's client tools (`psql`, `pg_dump`…) against this
    /// cluster, with its password, and returns what it printed.
    public static func runTool(_ name: String, _ arguments: [String], cluster: LocalCluster) throws -> String {
        try run(try binaries().appendingPathComponent(name), arguments, as: nil, environment: ["PGPASSWORD": try cluster.password()])
    }
}
