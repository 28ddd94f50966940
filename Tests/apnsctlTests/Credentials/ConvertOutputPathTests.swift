import APNSTestSupport
import Foundation
import Testing

/// Where `convert` may write: directories, missing folders, and `--force` replacing a file whole.
@Suite struct ConvertOutputPathTests {
    let scratch: TemporaryDirectory
    let p12: String
    init() throws {
        scratch = try TemporaryDirectory(prefix: "convert-out")
        let d = scratch.path
        let made = try CommandRunner.run(
            "openssl",
            [
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256",
                "-nodes", "-keyout", "\(d)/k.pem", "-out", "\(d)/c.pem", "-days", "2",
                "-subj", "/CN=convert test",
            ])
        #expect(made.status == 0, "\(made.stderr)")
        p12 = scratch.file("in.p12")
        let exported = try CommandRunner.run(
            "openssl",
            [
                "pkcs12", "-export", "-in", "\(d)/c.pem", "-inkey", "\(d)/k.pem",
                "-out", p12, "-passout", "pass:",
            ])
        #expect(exported.status == 0, "\(exported.stderr)")
    }

    private func convert(_ args: [String]) throws -> CommandResult {
        try InProcess.apnsctl(["convert", p12] + args, environment: ["APNSCTL_PASSPHRASE": ""])
    }

    @Test func aDirectoryIsNotAnOutputFileEvenWithForce() throws {
        let dir = scratch.file("outdir")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        for extra in [[], ["--force"]] {
            let r = try convert(["-o", dir] + extra)
            #expect(r.status == 73)
            #expect(r.stderr.hasPrefix("error: -o \(dir): is a directory, not a regular file"), "\(r.stderr)")
            #expect(r.stderr.contains("-o -"))
        }
    }

    @Test func aMissingFolderIsNamedWithAdvice() throws {
        let r = try convert(["-o", scratch.file("no/such/dir/out.pem")])
        #expect(r.status == 73)
        #expect(r.stderr.contains("its directory does not exist; create it first"))
    }

    /// A directory whose file system makes no files (/proc) is not said to be missing: it is there.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/status")))
    func aKernelFileSystemIsNotAMissingFolder() throws {
        let r = try convert(["-o", "/proc/apnsctl-convert-test.pem"])
        #expect(r.status == 73, "\(r.stderr)")
        // After the warning that this test's certificate is a CA, the error.
        #expect(
            r.stderr.split(separator: "\n").last
                == "error: -o /proc/apnsctl-convert-test.pem: cannot create: its file system takes no new files (the kernel's /proc and /sys); choose another path",
            "\(r.stderr)")
    }

    /// Whether `chattr +i` works here (root, and a file system that keeps the flag): only then can a file refuse
    /// to be replaced in a writable folder.
    static let canMarkImmutable: Bool = {
        guard getuid() == 0, let dir = try? TemporaryDirectory(prefix: "chattr-probe") else { return false }
        let probe = dir.file("probe")
        guard FileManager.default.createFile(atPath: probe, contents: Data()),
            (try? CommandRunner.run("chattr", ["+i", probe]))?.status == 0
        else { return false }
        _ = try? CommandRunner.run("chattr", ["-i", probe])
        return true
    }()

    /// `--force` over an immutable file: the folder is writable, so "choose a directory you can write to" was the
    /// wrong way; the file itself is named as what refuses, with the command that shows it, and left as it was.
    @Test(.enabled(if: canMarkImmutable))
    func anImmutableFileIsSaidToRefuseReplacement() throws {
        let out = try scratch.write("immutable.pem", "kept\n")
        #expect(try CommandRunner.run("chattr", ["+i", out]).status == 0)
        defer { _ = try? CommandRunner.run("chattr", ["-i", out]) }
        let r = try convert(["-o", out, "--force"])
        #expect(r.status == 73, "\(r.stderr)")
        #expect(
            r.stderr.split(separator: "\n").last
                == "error: -o \(out): cannot create: the existing file refuses to be replaced: it is immutable or append-only (lsattr \(out) shows it), or another user's in a shared folder such as /tmp; choose another path",
            "\(r.stderr)")
        #expect(try scratch.read("immutable.pem") == "kept\n")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: scratch.path).filter {
            $0.contains(".tmp-")
        }
        #expect(leftovers.isEmpty, "\(leftovers)")
    }

    /// `-o ""` (an unset variable) is the flag's mistake (64), not a folder that does not exist (73); a path
    /// through a file is said to be one, not a missing folder. A new file is written whole: no temporary left.
    @Test func anEmptyPathOrOneThroughAFileIsSaidAsSuch() throws {
        let empty = try convert(["-o", ""])
        #expect(empty.status == 64, "\(empty.stderr)")
        #expect(
            empty.stderr
                == "error: -o: an empty path; give the file to write (.pem or .p12), or - for standard output\n")
        let file = try scratch.write("plain.pem", "x\n")
        let through = try convert(["-o", file + "/out.pem"])
        #expect(through.status == 73, "\(through.stderr)")
        #expect(through.stderr.contains("a part of its path is a file, not a directory"), "\(through.stderr)")
        let fresh = try convert(["-o", scratch.file("fresh.pem")])
        #expect(fresh.status == 0, "\(fresh.stderr)")
        // A certificate that is no push certificate (this one is a self-signed CA) is said to be one, as inspect and
        // send say it.
        #expect(
            fresh.stderr.hasPrefix(
                "warning: \(p12): a CA certificate (basicConstraints CA:TRUE), not a push certificate"),
            "\(fresh.stderr)")
        #expect(try scratch.read("fresh.pem").hasPrefix("-----BEGIN CERTIFICATE-----"))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: scratch.path).filter { $0.hasPrefix(".") }
        #expect(leftovers.isEmpty, "\(leftovers)")
    }

    @Test func forceReplacesTheFileWholeWithMode0600AndLeavesNoTemporaryFile() throws {
        let out = try scratch.write("out.pem", "old contents\n", mode: 0o644)
        let r = try convert(["-o", out, "--force"])
        #expect(r.status == 0, "\(r.stderr)")
        let text = try scratch.read("out.pem")
        #expect(text.hasPrefix("-----BEGIN CERTIFICATE-----"))
        let mode = try FileManager.default.attributesOfItem(atPath: out)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: scratch.path).filter {
            $0.contains(".tmp-")
        }
        #expect(leftovers.isEmpty)
    }

    /// `--force` replaces only a regular file (CLI.md): a symlink (even to a regular file), a FIFO, a socket,
    /// a device node and a directory are 73, named, with `-o -` suggested, and each is still there after;
    /// without `--force` the message is the same.
    @Test func forceReplacesNothingButARegularFile() throws {
        let target = try scratch.write("target.pem", "target contents\n")
        var cases: [(path: String, what: String)] = []
        let link = scratch.file("link.pem")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        cases.append((link, "a symbolic link"))
        let fifo = scratch.file("fifo.pem")
        #expect(mkfifo(fifo, 0o600) == 0)
        cases.append((fifo, "a FIFO (named pipe)"))
        let dir = scratch.file("dir.pem")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: false)
        cases.append((dir, "a directory"))
        let socketPath = scratch.file("s.pem")
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in socketPath.utf8.prefix(raw.count - 1).enumerated() { raw[i] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        defer { close(fd) }
        if bound == 0 { cases.append((socketPath, "a socket")) }
        // A device node like /dev/null, made here (never a real /dev entry); skipped where mknod is not permitted.
        let device = scratch.file("null.pem")
        if mknod(device, S_IFCHR | 0o600, dev_t((1 << 8) | 3)) == 0 { cases.append((device, "a character device")) }
        for (path, what) in cases {
            for extra in [["--force"], []] {
                let r = try convert(["-o", path] + extra)
                #expect(r.status == 73, "\(what) \(extra): \(r.status) \(r.stderr)")
                #expect(r.stderr.hasPrefix("error: -o \(path): is \(what), not a regular file"), "\(r.stderr)")
                #expect(r.stderr.contains("-o -"), "\(r.stderr)")
            }
            var st = stat()
            #expect(lstat(path, &st) == 0, "\(what) is gone")
        }
        #expect(try scratch.read("target.pem") == "target contents\n")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: scratch.path).filter {
            $0.contains(".tmp-")
        }
        #expect(leftovers.isEmpty)
    }
}
