/// The bash completion script the argument parser generates ends with `complete -o filenames -F _apnsctl
/// apnsctl`: bash then treats every candidate as a file name and appends `/` to one that names a folder in
/// the current directory, so `apnsctl sen<Tab>` became `send/` where a folder `send` exists. The option is
/// moved to where paths are completed (`compopt -o filenames` when the candidates come from `compgen -f`
/// or `-d`), so command names and flag values are completed as words.
enum BashCompletionScript {
    static let parserLine = "complete -o filenames -F _apnsctl apnsctl"
    static let helperHead = """
        __apnsctl_add_completions() {
            local completion
        """

    /// `script` with `-o filenames` only for paths; any other text (zsh, fish, help) unchanged.
    static func adjusted(_ script: String) -> String {
        guard script.contains(parserLine), script.contains(helperHead) else { return script }
        return
            script
            .replacing(parserLine, with: "complete -F _apnsctl apnsctl")
            .replacing(
                helperHead,
                with: helperHead + """

                        # Paths only: bash appends / to folders and quotes names for file candidates, not for words.
                        if [[ "$1" == -f || "$1" == -d ]]; then compopt -o filenames 2>/dev/null; fi
                    """)
    }
}
