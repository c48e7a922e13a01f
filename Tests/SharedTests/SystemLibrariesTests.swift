import CSQLite
import COpenSSL
import Testing

/// The two system-library targets import and link: the C libraries later layers stand on.
@Suite struct SystemLibrariesTests {
    @Test func sqliteLinksAndIsRecentEnoughForTheStore() {
        // 3.35 brought RETURNING and DROP COLUMN, which numbered migrations may use.
        #expect(sqlite3_libversion_number() >= 3_035_000)
        #expect(sqlite3_threadsafe() != 0)
    }

    @Test func openSSLLinksAndIsVersion3() {
        #expect(OpenSSL_version_num() >= 0x3000_0000)
        #expect(EVP_sha256() != nil)
    }
}
