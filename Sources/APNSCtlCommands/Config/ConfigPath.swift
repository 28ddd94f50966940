import APNSCore
import APNSPlatform
import APNSSettings
import ArgumentParser

extension APNSCtl.Config {
    /// `apnsctl config path`: the settings file in use and whether it exists (it is not parsed; a file no command
    /// would read is said with why).
    struct Path: WorldCommand {
        static let configuration = CommandConfiguration(
            commandName: "path",
            abstract: "Print the settings file in use, and whether it exists.",
            discussion: """
                Prints the path, then in parentheses where the choice came from (--config, APNSCTL_CONFIG, \
                or the default) and whether the file exists. A missing default file means no settings. With \
                -o json: {"path":…,"origin":…,"exists":…}. With no home directory for the default file, \
                none is read: the path is null.
                """)

        @OptionGroup var file: ConfigFileOptions

        @Option(
            name: [.customShort("o"), .customLong("output")],
            help: ArgumentHelp("Format: text or json.", valueName: "text|json"), completion: OutputFormat.completion,
            transform: OutputFormat.argument)
        var output: OutputFormat = .text

        func run(in world: CommandWorld) throws {
            let format = output
            let location = try file.location(in: world)
            let exists = !location.isNone && FileSystem.exists(location.path)
            switch format {
            case .json:
                var w = JSONWriter()
                w.beginObject()
                w.field("path", location.isNone ? nil : location.path)
                w.field("origin", location.origin.kind)
                if case .flag(let f) = location.origin { w.field("flag", f) }
                if case .variable(let v) = location.origin { w.field("variable", v) }
                w.field("exists", exists)
                w.endObject()
                try ConfigOutput.write([String(decoding: w.bytes, as: UTF8.self)], to: world.standardOutput)
            case .text where location.isNone:
                let why = world.settings.noHomeReason(xdg: "XDG_CONFIG_HOME")
                try ConfigOutput.write(
                    ["none: no home directory for the default settings file (\(why)); no settings are read"],
                    to: world.standardOutput)
            case .text:
                let from = location.isExplicit ? "from \(location.origin.description); " : "the default; "
                // Something there that no command reads (a folder, a FIFO, a link to nothing, another's file): what
                // they would say, so "exists" is not taken for "in use".
                var refusal = ""
                if exists {
                    do { _ = try SettingsFileReader.read(location) } catch {
                        refusal = ", but no command reads it: " + error.message
                    }
                }
                try ConfigOutput.write(
                    [
                        "\(location.path.escapingControlsForOutput()) (\(from)\(exists ? "exists" : "does not exist")\(!exists && !location.isExplicit ? ": no settings are read" : "")\(refusal.escapingControlsForOutput()))"
                    ],
                    to: world.standardOutput)
            }
        }
    }
}
