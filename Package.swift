// swift-tools-version:6.0
// apnsctl: test and send Apple push notifications from the shell.
// Layout (arrows point one way): apnsctl -> APNSCtlCommands -> APNSSettings -> APNSClient; APNSCtlCommands -> APNSClient / APNSMock -> APNSCrypto / APNSHTTP2 -> APNSCore,
// with APNSPlatform (the operating system) beside APNSCore for everything that does I/O.
import PackageDescription

let package = Package(
    name: "apnsctl",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "apnsctl", targets: ["apnsctl"])
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0")
    ],
    targets: [
        // C libraries, reached through pkg-config; the modulemap's `link` lines are the fallback.
        .systemLibrary(
            name: "COpenSSL", pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"]), .brew(["openssl@3"])]),
        .systemLibrary(
            name: "CNghttp2", pkgConfig: "libnghttp2",
            providers: [.apt(["libnghttp2-dev"]), .brew(["libnghttp2"])]),
        .systemLibrary(
            name: "CPlist", pkgConfig: "libplist-2.0", providers: [.apt(["libplist-dev"]), .brew(["libplist"])]),
        .systemLibrary(name: "CZip", pkgConfig: "libzip", providers: [.apt(["libzip-dev"]), .brew(["libzip"])]),
        .systemLibrary(
            name: "CSQLite", pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]),
        // Kernel calls Swift cannot import (variadic prctl), as static inline wrappers; no library to link.
        .systemLibrary(name: "CPlatform"),

        // Pure Swift, no C library: APNs vocabulary, JSON reader, payload validator, device tokens.
        .target(name: "APNSCore"),
        // The operating system: sockets, poll, files, streams, signals, clocks, threads and locks. Every
        // Glibc/Darwin difference lives here, behind `#if canImport(Darwin)`. It uses APNSCore's
        // PrintableText, the one escaping function, for every message on stderr.
        .target(name: "APNSPlatform", dependencies: ["APNSCore", "CPlatform"]),
        // The only importer of COpenSSL: certificates, keys, PKCS#12, provider tokens, TLS.
        .target(name: "APNSCrypto", dependencies: ["APNSCore", "APNSPlatform", "COpenSSL"]),
        // The only importer of CNghttp2: HTTP/2 client and server sessions over a byte stream, and HTTP2Pump,
        // the one driver that moves their bytes over a TLSConnection (client and mock alike).
        .target(name: "APNSHTTP2", dependencies: ["APNSCore", "APNSCrypto", "CNghttp2"]),
        // Sending: connect, multiplex, resend after GOAWAY, one result per device.
        .target(name: "APNSClient", dependencies: ["APNSCore", "APNSPlatform", "APNSCrypto", "APNSHTTP2"]),
        // The local APNs: checks requests with the same vocabulary and validator as the client.
        .target(name: "APNSMock", dependencies: ["APNSCore", "APNSPlatform", "APNSCrypto", "APNSHTTP2"]),
        // App builds (.ipa, .app, .xcarchive, .mobileprovision) as untrusted input: the only importer of libplist
        // and libzip; the profile's CMS structure is read through APNSCrypto.
        .target(name: "APNSAppBuild", dependencies: ["APNSCore", "APNSPlatform", "APNSCrypto", "CPlist", "CZip"]),
        // Settings: the TOML settings file, profiles, device names, APNSCTL_* variables, and the resolver that
        // turns flags, variables and profiles into one typed value per command, each with its origin. Pure
        // (inputs in, values out) except the one function that reads the file; no C module.
        .target(name: "APNSSettings", dependencies: ["APNSCore", "APNSPlatform", "APNSCrypto", "APNSClient"]),
        // The send history: a SQLite database of what was sent and answered; the only importer of CSQLite.
        .target(name: "APNSHistory", dependencies: ["APNSCore", "APNSPlatform", "CSQLite"]),
        // Every command, laid out by command (Send/, Channel/, Credentials/, Validate/, Mock/, Config/, Doctor/)
        // with what several share in Shared/: argument parsing, rendering and exit codes; imports no C module.
        .target(
            name: "APNSCtlCommands",
            dependencies: [
                "APNSCore", "APNSPlatform", "APNSCrypto", "APNSHTTP2", "APNSClient", "APNSMock", "APNSSettings",
                "APNSAppBuild", "APNSHistory",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),
        // The executable: one line calling APNSCtlCommands, so tests reach the commands in-process.
        .executableTarget(name: "apnsctl", dependencies: ["APNSCtlCommands"]),

        // Helpers shared by the test targets: run the built binary, temp dirs, openssl CLI, the in-process mock with an answer observer.
        .target(
            name: "APNSTestSupport", dependencies: ["APNSCore", "APNSPlatform", "APNSCrypto", "APNSHTTP2", "APNSMock"],
            path: "Tests/APNSTestSupport"),
        .testTarget(name: "APNSPlatformTests", dependencies: ["APNSPlatform", "APNSCore"]),
        // Rules about the whole tree no compiler checks (C library imports, terminal code, escape hatches).
        .testTarget(name: "SourceTreeTests", dependencies: ["APNSTestSupport"]),
        .testTarget(name: "APNSCoreTests", dependencies: ["APNSCore", "APNSPlatform", "APNSTestSupport"]),
        .testTarget(name: "APNSCryptoTests", dependencies: ["APNSCrypto", "APNSPlatform", "APNSTestSupport"]),
        .testTarget(
            name: "APNSHTTP2Tests", dependencies: ["APNSHTTP2", "APNSCrypto", "APNSPlatform", "APNSTestSupport"]),
        .testTarget(
            name: "APNSClientTests", dependencies: ["APNSClient", "APNSPlatform", "APNSMock", "APNSTestSupport"]),
        .testTarget(
            name: "APNSSettingsTests", dependencies: ["APNSSettings", "APNSCore", "APNSPlatform", "APNSTestSupport"]),
        .testTarget(name: "APNSHistoryTests", dependencies: ["APNSHistory", "APNSPlatform", "APNSTestSupport"]),
        .testTarget(name: "APNSMockTests", dependencies: ["APNSMock", "APNSHTTP2", "APNSPlatform", "APNSTestSupport"]),
        // The fuzz targets of Fuzz/ (JSON payloads, TOML, --devices lines), run in-process for a fixed number of
        // seeded mutations; scripts/fuzz.sh builds the same files for libFuzzer (make fuzz).
        .testTarget(
            name: "FuzzTargetTests", dependencies: ["APNSCore", "APNSSettings", "APNSClient", "APNSTestSupport"],
            path: "Fuzz", exclude: ["LibFuzzerEntry.swift", "FuzzCheck.swift", "Mutation", "Seeds", "json.dict"]),
        // COpenSSL: one fixture (a PKCS#12 with its key bag inside an encrypted safe) no exporter makes.
        .testTarget(
            name: "apnsctlTests",
            dependencies: [
                "APNSCtlCommands", "APNSPlatform", "APNSMock", "APNSTestSupport", "APNSCrypto", "COpenSSL",
                "APNSAppBuild", "APNSHistory",
            ]),
    ]
)
// `make test` builds the tests in the release configuration, so the code under test runs as users run it; the
// test code itself compiles without optimisation, as in a debug build, which would otherwise double the build.
for target in package.targets where target.type == .test || target.name == "APNSTestSupport" {
    target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-Onone"], .when(configuration: .release))]
}
