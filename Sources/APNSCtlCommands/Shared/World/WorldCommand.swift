import ArgumentParser

/// A command that runs in a `CommandWorld`: every variable, root, clock reading and byte of output it uses
/// comes from the world it is given. `APNSCtl.execute` passes the one `main` built; tests pass their own.
protocol WorldCommand: ParsableCommand {
    func run(in world: CommandWorld) throws
}

extension WorldCommand {
    /// ArgumentParser's entry, for a command run outside `APNSCtl.execute`: the process's world.
    func run() throws { try run(in: .process()) }
}
