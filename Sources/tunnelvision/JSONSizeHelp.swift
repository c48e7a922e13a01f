/// The sentence the helps of the commands whose --json carries sizes end with: `JSONWriter.size`'s
/// rule, said once.
enum JSONSizeHelp {
    static let paragraph = """
        In --json, each size in bytes has its words beside it, under its name with Text: "bytesIn":
        1536, "bytesInText": "1.5 KiB" (binary units; "unknown" beside a size that is null).
        """
}
