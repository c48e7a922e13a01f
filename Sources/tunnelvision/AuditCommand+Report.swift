import App
import Foundation
import Linux
import Shared

/// `audit report SESSION -o FILE`: the report written as HTML, or printed to PDF by Chromium when
/// FILE ends in .pdf. A file already there is replaced only with --force; the new one replaces it
/// whole (written beside it, then renamed: a link in its place is replaced, never followed).
enum AuditReportFile {
    /// The browsers that print to PDF headless, in the order looked for.
    static let printers = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"]

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Writes `html` to `path` (PDF by its extension) and says what was written.
    static func write(_ html: String, to path: String, force: Bool) throws(Failure) -> (format: String, bytes: Int) {
        let target = URL(fileURLWithPath: path)
        if !force, PathStatus.of(target.path) != nil {
            throw Failure(description: "\(path) is already there: add --force to replace it, or choose another file with -o")
        }
        let pdf = target.pathExtension.lowercased() == "pdf"
        let bytes = pdf ? try printed(html) : Data(html.utf8)
        do {
            try AtomicFile.replace(target, with: bytes)
        } catch {
            if !error.replaced { throw Failure(description: "the report could not be written: \(error)") }
        }
        return (pdf ? "pdf" : "html", bytes.count)
    }

    /// The PDF Chromium prints of `html`, from a private temporary folder removed afterwards.
    static func printed(_ html: String) throws(Failure) -> Data {
        guard let browser = printers.lazy.compactMap(ExternalCommand.locate).first else {
            throw Failure(description: "a PDF needs Chromium (apt-get install chromium), which is not installed here; "
                          + "write the report as HTML (-o FILE.html) and print it from any browser")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tunnelvision-report-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let page = folder.appendingPathComponent("report.html"), pdf = folder.appendingPathComponent("report.pdf")
        do {
            try PrivateDirectory.create(folder)
            try AtomicFile.replace(page, with: Data(html.utf8))
        } catch {
            throw Failure(description: "the report could not be prepared for printing: \(error)")
        }
        // The page has no script and fetches nothing; as root Chromium refuses to start without
        // --no-sandbox. `timeout` bounds a browser that never returns.
        let arguments = ["timeout", "120", browser, "--headless", "--disable-gpu", "--no-pdf-header-footer",
                         "--user-data-dir=\(folder.appendingPathComponent("profile").path)", "--print-to-pdf=\(pdf.path)"]
            + (geteuid() == 0 ? ["--no-sandbox"] : []) + [page.absoluteString]
        let result: CommandOutput
        do { result = try ExternalCommand.run(arguments) } catch {
            throw Failure(description: "Chromium could not be started to print the PDF: \(error)")
        }
        guard result.status == 0, let data = try? Data(contentsOf: pdf), data.starts(with: Array("%PDF".utf8)) else {
            throw Failure(description: "Chromium did not print the PDF (status \(result.status)): "
                          + result.standardError.split(separator: "\n").suffix(3).joined(separator: " "))
        }
        return data
    }
}
