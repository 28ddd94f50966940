import Foundation

/// Paths inside this repository, for tests that read `Payloads/` and other committed samples.
public enum Repository {
    /// The package root (the directory holding Package.swift).
    public static var root: String {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.path + "/Package.swift") { return url.path }
        }
        return FileManager.default.currentDirectoryPath
    }

    /// `root/relative`.
    public static func path(_ relative: String) -> String { root + "/" + relative }
}
