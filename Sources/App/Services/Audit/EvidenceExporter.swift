import Foundation
import Shared

/// Exports one ended audit session as an evidence bundle (audit.md § Evidence bundle): a zip
/// `tunnelvision-evidence-session-<id>-<yyyyMMdd-HHmmss>.zip` holding a folder of the same name
/// with the seven files. An actor because it writes to disk; it opens the history for each export
/// and closes it after.
///
/// The order is the spec's: the four documents (`EvidenceBundle`), then `capture.pcapng`
/// (`EvidenceCaptureWriter`, hashed as it is written), then `capture.json`, then `manifest.json`
/// last — every other file's size and SHA-256 — then the zip. Everything is put together in a
/// private folder inside the destination and only the finished zip is moved out, under a name no
/// file holds yet; any failure removes the folder, so it leaves nothing, and one call writes at
/// most one bundle. The session's connections are read twice, before and after the capture: a
/// connection that changed meanwhile (a tagged one carrying on after the session ended) fails
/// the export rather than bundle two moments. Decrypted content is never read.
package actor EvidenceExporter {
    package typealias StoreOpener = @Sendable () throws -> FlowStore

    private let openStore: StoreOpener
    private let resolveCaptures: @Sendable () throws -> URL
    private let catalogues: RequirementCatalogueLibrary
    /// Documents are text and shrink about tenfold.
    static let documentMethod = ZipWriter.Method.deflated(level: ZipWriter.defaultLevel)
    /// Stored: on `tvlab bench evidence`'s capture (248 MB, its payloads as incompressible as TLS
    /// records) deflate saved 10 % for 5.2 s at level 1 and 6.7 s at level 6, against 0.26 s to
    /// store it — more than the whole export's 3 s budget.
    static let captureMethod = ZipWriter.Method.stored

    /// The history and captures of `dataDirectory`, read as every reading command reads them
    /// (`HistoryAccess`: never created, refused unless the directory can be trusted).
    package init(dataDirectory: URL, catalogues: RequirementCatalogueLibrary = .bundled) {
        self.init(openStore: { try HistoryAccess.openStore(dataDirectory: dataDirectory.path) },
                  captures: { DataDirectoryLayout.captures(in: dataDirectory) }, catalogues: catalogues)
    }

    /// The seams a test uses: how the history is opened and where the captures are.
    package init(openStore: @escaping StoreOpener, captures: @escaping @Sendable () throws -> URL,
                catalogues: RequirementCatalogueLibrary = .bundled) {
        self.openStore = openStore
        resolveCaptures = captures
        self.catalogues = catalogues
    }

    /// Writes session `sessionID`'s bundle into `destination` (created 0700 when missing), its
    /// documents dated `exportedAt`.
    package func export(sessionID: Int64, to destination: URL, exportedAt: Date) async throws(EvidenceExportError) -> EvidenceExportResult {
        let store: FlowStore
        do { store = try openStore() } catch { throw .historyUnreadable("\(error)") }
        do throws(EvidenceExportError) {
            let result = try await export(sessionID: sessionID, from: store, to: destination, exportedAt: exportedAt)
            await store.close()
            return result
        } catch {
            await store.close()
            throw error
        }
    }

    private func export(sessionID: Int64, from store: FlowStore, to destination: URL,
                        exportedAt: Date) async throws(EvidenceExportError) -> EvidenceExportResult {
        guard let session = try await read({ try await store.auditSession(id: sessionID) }) else { throw .sessionNotFound(sessionID) }
        guard !session.isOpen else { throw .sessionStillOpen(sessionID) }
        guard let project = try await read({ try await store.auditProject(id: session.projectID) }) else {
            throw .historyUnreadable("session \(sessionID)'s project \(session.projectID) is not in the history")
        }
        let catalogue = try catalogue(for: project)
        let markers = try await read { try await store.markers(forSession: sessionID) }
        let count = try await read { try await store.flowCount(inAuditSession: sessionID) }
        let flows = try await read { try await store.allFlows(inAuditSession: sessionID) }
        guard flows.count == count else { throw .historyChangedWhileExporting }
        let captureFiles: [UInt32: URL]
        do {
            captureFiles = try CaptureDirectory.files(in: try resolveCaptures())
        } catch {
            throw .captureDirectoryUnavailable("\(error)")
        }

        let name = EvidenceBundleFormat.bundleName(sessionID: sessionID, exportedAt: exportedAt)
        let staging = try EvidenceStaging(in: destination)
        do throws(EvidenceExportError) {
            var entries: [EvidenceManifest.Entry] = []
            let (findingIDs, findingCount) = try writeDocuments(project: project, session: session, markers: markers, flows: flows,
                                                                catalogue: catalogue, exportedAt: exportedAt, into: staging, entries: &entries)
            let capture = try await writeCapture(of: session, findingIDs: findingIDs, files: captureFiles, from: store, into: staging)
            entries.append(capture.manifestEntry)
            entries.append(try staging.write(EvidenceBundleFormat.captureDescriptionFile, capture.json))
            // The connections as they were at the first read, or no bundle.
            guard try await read({ try await store.allFlows(inAuditSession: sessionID) }) == flows else {
                throw .historyChangedWhileExporting
            }
            let manifest: EvidenceManifest
            do { manifest = try EvidenceManifest(entries: entries) } catch { throw .writeFailed("the manifest: \(error)") }
            _ = try staging.write(EvidenceBundleFormat.manifestFile, manifest.json)
            let archive = name + EvidenceBundleFormat.archiveExtension
            let byteCount = try zip(staging, folder: name, as: archive, exportedAt: exportedAt)
            let url = try staging.place(archive, as: archive)
            staging.remove()
            return EvidenceExportResult(url: url, byteCount: byteCount, flowCount: flows.count, findingCount: findingCount,
                                        capture: capture)
        } catch {
            staging.remove()
            throw error
        }
    }

    /// The four documents, written and let go (a large session's are tens of MB); what the
    /// capture needs of them: each flow's finding ids, and how many findings there are.
    private func writeDocuments(project: AuditProject, session: AuditSession, markers: [SessionMarker], flows: [StoredFlow],
                                catalogue: RequirementCatalogue, exportedAt: Date, into staging: EvidenceStaging,
                                entries: inout [EvidenceManifest.Entry]) throws(EvidenceExportError) -> ([Int64: [String]], Int) {
        let bundle: EvidenceBundle
        do {
            bundle = try EvidenceBundle(project: project, session: session, markers: markers, flows: flows, catalogue: catalogue,
                                        exportedAt: exportedAt)
        } catch {
            switch error {
            case .sessionStillOpen: throw .sessionStillOpen(session.id)
            case .duplicateFlow: throw .historyChangedWhileExporting
            case .sessionOfAnotherProject: throw .historyUnreadable("\(error)")
            }
        }
        entries.append(try staging.write(EvidenceBundleFormat.sessionFile, bundle.sessionJSON))
        entries.append(try staging.write(EvidenceBundleFormat.flowsFile, bundle.flowsJSON))
        entries.append(try staging.write(EvidenceBundleFormat.flowsCSVFile, bundle.flowsCSV))
        entries.append(try staging.write(EvidenceBundleFormat.findingsFile, bundle.findingsJSON))
        return (bundle.findingIDs, bundle.findings.findings.count)
    }

    /// `capture.pcapng`, a capture file at a time; packets that are not the ones counted mean the
    /// history changed.
    private func writeCapture(of session: AuditSession, findingIDs: [Int64: [String]], files: [UInt32: URL], from store: FlowStore,
                              into staging: EvidenceStaging) async throws(EvidenceExportError) -> EvidenceCapture {
        let counts = try await read { try await store.packetCounts(inAuditSession: session.id) }
        let writer = try Self.capture { () throws(EvidenceCaptureError) in
            try EvidenceCaptureWriter(destination: staging.url(EvidenceBundleFormat.captureFile), captureFiles: files, session: session,
                                      findingIDs: findingIDs, packetCounts: counts)
        }
        for file in writer.filesToRead {
            let packets = try await read { try await store.capturedPackets(inAuditSession: session.id, fileSequence: file) }
            guard packets.count == writer.expectedPackets(inFile: file) else { throw .historyChangedWhileExporting }
            try Self.capture { () throws(EvidenceCaptureError) in try writer.write(fileSequence: file, packets: packets) }
        }
        // The zip is synced; its staged source need not be.
        return try Self.capture { () throws(EvidenceCaptureError) in try writer.finish(sync: false) }
    }

    /// A step of the capture, its refusal said as the export's: a packet of a flow the bundle does
    /// not list is a history that changed since the flows were read.
    private static func capture<Value>(_ body: () throws(EvidenceCaptureError) -> Value) throws(EvidenceExportError) -> Value {
        do {
            return try body()
        } catch {
            switch error {
            case .flowNotInBundle: throw .historyChangedWhileExporting
            case let .destinationUnavailable(reason), let .writeFailed(reason): throw .writeFailed(reason)
            }
        }
    }

    /// The zip of the staged files in a folder `folder`: the documents deflated, the capture stored.
    private func zip(_ staging: EvidenceStaging, folder: String, as archive: String, exportedAt: Date) throws(EvidenceExportError) -> UInt64 {
        do throws(ZipWriterError) {
            let writer = try ZipWriter(url: staging.url(archive), modified: exportedAt)
            try writer.addDirectory(folder + "/")
            for file in EvidenceBundleFormat.documentFiles + [EvidenceBundleFormat.manifestFile] {
                try writer.addFile(folder + "/" + file, contentsOf: staging.url(file),
                                   method: file == EvidenceBundleFormat.captureFile ? Self.captureMethod : Self.documentMethod)
            }
            return try writer.finish()
        } catch {
            throw .writeFailed(error.description)
        }
    }

    private func catalogue(for project: AuditProject) throws(EvidenceExportError) -> RequirementCatalogue {
        let identifier = RequirementCatalogueLibrary.identifier(for: project)
        do {
            return try catalogues.catalogue(identifier: identifier)
        } catch {
            switch error {
            case .notBundled: throw .catalogueNotBundled(identifier: identifier)
            case .unusable, .misfiled: throw .catalogueUnusable(identifier: identifier)
            }
        }
    }

    /// A read of the history: a session gone meanwhile is `sessionNotFound`, any other failure
    /// `historyUnreadable`.
    private func read<Value: Sendable>(_ body: () async throws -> Value) async throws(EvidenceExportError) -> Value {
        do {
            return try await body()
        } catch let error as AuditStoreError {
            if case let .sessionNotFound(id) = error { throw .sessionNotFound(id) }
            throw .historyUnreadable(error.description)
        } catch {
            throw .historyUnreadable("\(error)")
        }
    }
}
