import Foundation
import Linux

/// The HTTPS server of the inspection lab (the end-to-end tests and `tvlab bench inspect`, never
/// the product): nginx
/// on the lab's server address, port 443, HTTP/2 and HTTP/1.1, serving `root` as `host` with a
/// leaf from the lab's PKI. One process (`master_process off`): a worker would keep the pipes of
/// the master open after its SIGKILL, and whoever waits on them would wait forever.
package struct InspectionNginx: Sendable {
    package static let port = 443
    package let host: String
    package let pki: DemoCertificates
    /// The directory served.
    package let root: URL
    /// Where the configuration, pid file and temporary files go.
    package let work: URL

    package init(host: String, pki: DemoCertificates, root: URL, work: URL) {
        self.host = host
        self.pki = pki
        self.root = root
        self.work = work
    }

    package var configurationFile: URL { work.appendingPathComponent("nginx.conf") }

    package var configuration: String {
        let temp = work.appendingPathComponent("nginx-temp").path
        return """
            daemon off; master_process off; user root; pid \(work.appendingPathComponent("nginx.pid").path);
            error_log stderr;
            events {}
            http {
                access_log off;
                client_body_temp_path \(temp); proxy_temp_path \(temp); fastcgi_temp_path \(temp);
                uwsgi_temp_path \(temp); scgi_temp_path \(temp);
                types { application/json json; application/octet-stream bin; text/plain txt; }
                server {
                    listen \(Lab.serverIPv4):\(Self.port) ssl http2;
                    server_name \(host);
                    ssl_certificate \(pki.chain(for: host));
                    ssl_certificate_key \(pki.key(for: host));
                    root \(root.path);
                    # The same files gzip-coded for a client that accepts it: decrypted bodies are decoded.
                    location /gzip/ { alias \(root.path)/; gzip on; gzip_types *; gzip_min_length 1; }
                }
            }
            """
    }

    /// Writes the configuration and answers the command line that runs nginx with it (in the
    /// server namespace: the caller starts it there, its own way).
    package func prepare() throws -> [String] {
        try configuration.write(to: configurationFile, atomically: true, encoding: .utf8)
        return ["nginx", "-c", configurationFile.path, "-e", "stderr"]
    }
}
