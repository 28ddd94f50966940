import Testing

@testable import APNSCrypto
@testable import APNSPlatform

/// Where the system trust store is read from, for every combination of `SSL_CERT_FILE`, `SSL_CERT_DIR`
/// and a default directory with or without hashed names: the bundle is parsed whole only when a variable
/// names it or no directory can be searched by hash.
@Suite struct SystemTrustTests {
    static let defaultFile = "/usr/lib/ssl/cert.pem", defaultDir = "/usr/lib/ssl/certs"

    func plan(file: String?, dir: String?, hashed: Set<String>) -> SystemTrust {
        SystemTrust.plan(
            certFile: file, certDir: dir, defaultFile: Self.defaultFile, defaultDir: Self.defaultDir,
            hasHashedNames: { hashed.contains($0) })
    }

    @Test func aHashedDefaultDirectoryIsSearchedAndTheBundleNeverRead() {
        let p = plan(file: nil, dir: nil, hashed: [Self.defaultDir])
        #expect(p.file == nil && p.directories == [Self.defaultDir] && !p.directoriesFromVariable)
        #expect(p.description == "the system trust store (/usr/lib/ssl/certs)")
    }

    @Test func aSystemWithOnlyABundleReadsTheBundle() {
        let p = plan(file: nil, dir: nil, hashed: [])
        #expect(p.file == Self.defaultFile && p.fileVariable == nil && p.directories.isEmpty)
        #expect(p.description == "the system bundle /usr/lib/ssl/cert.pem")
        #expect(p.advice == nil)
    }

    @Test func sslCertFileIsReadWholeBesideTheDirectory() {
        let p = plan(file: "/x/bundle.pem", dir: nil, hashed: [Self.defaultDir])
        #expect(p.file == "/x/bundle.pem" && p.fileVariable == "SSL_CERT_FILE" && p.directories == [Self.defaultDir])
        #expect(p.description == "the system trust store (/usr/lib/ssl/certs) and SSL_CERT_FILE=/x/bundle.pem")
    }

    @Test func sslCertDirReplacesTheDefaultDirectoryAndMayListSeveral() {
        let p = plan(file: nil, dir: "/a:/b", hashed: ["/b"])
        #expect(p.file == nil && p.directories == ["/a", "/b"] && p.directoriesFromVariable)
        #expect(p.description == "SSL_CERT_DIR=/a:/b")
    }

    @Test func sslCertDirWithoutHashedNamesFallsBackToTheDefaultBundle() {
        let p = plan(file: nil, dir: "/empty", hashed: [Self.defaultDir])
        #expect(p.file == Self.defaultFile && p.directories.isEmpty)
    }

    @Test func sslCertFileWithAnUnhashedDirectoryIsTheFileAlone() {
        let p = plan(file: "/x/ca.pem", dir: "/empty", hashed: [])
        #expect(p.file == "/x/ca.pem" && p.directories.isEmpty)
        #expect(p.description == "SSL_CERT_FILE=/x/ca.pem")
    }

    @Test func emptyVariablesCountAsUnset() {
        #expect(
            plan(file: "", dir: "", hashed: [Self.defaultDir]) == plan(file: nil, dir: nil, hashed: [Self.defaultDir]))
    }

    @Test(arguments: [
        ("3513523f.0", true), ("12ed848d.12", true), ("ca-certificates.crt", false), ("3513523F.0", false),
        ("3513523f.", false), ("3513523f.r0", false), ("3513523.0", false),
    ])
    func hashedNames(_ name: String, _ hashed: Bool) {
        #expect(FileSystem.isHashedName(Array(name.utf8)) == hashed)
    }
}
