/// Text put into HTML the server writes (an error page, a report): every character markup could
/// read as markup is escaped, so nothing a record holds is ever parsed as HTML.
enum HTMLText {
    static func escaped(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
