extension CACommand {
    static let help = """
    tunnelvision ca show [--data-dir D] [--json]
    tunnelvision ca create [--data-dir D] [--json]
    tunnelvision ca create --remake --yes [--data-dir D] [--json]
    tunnelvision ca export [--pem | --der] FILE [--force] [--data-dir D] [--json]
    tunnelvision ca remove [--yes] [--data-dir D] [--json]

    The local certificate authority TLS inspection signs with: a P-256 root certificate and its
    private key, kept in the data directory only (DATA/ca/, mode 0700: root-key.pem, mode 0600, and
    root.pem). Nothing on this machine is made to trust it: 'tunnelvision run --inspect -- CMD' gives
    CMD alone a trust store that holds it. The key is never printed, exported or captured.

      show     whether there is a CA, its subject, SHA-256 fingerprint, validity, where its
               certificate is, and the tls-inspection setting. A CA that cannot be read (a key open
               to others, a symbolic link, a damaged file) is reported as such, never as "none";
               the exit status is then 1.
      create   makes one. Refused when one is there or when what is there cannot be read: making a
               new key would replace a root that may be trusted somewhere. --remake --yes removes the
               one there (inspection turned off first) and makes a new one.
      export   writes the root certificate (PEM by default, --der for DER) to FILE, for a program
               that reads its trust from a file. An existing FILE is refused unless --force, and a
               symbolic link there is replaced, never written through.
      remove   turns TLS inspection off (tls-inspection off, saved), then deletes the key and the
               certificate. If the setting cannot be saved, the CA is left as it is. The history and
               captures stay. Asks first; without a terminal --yes is required.

    --json   show and create: {"status": "notCreated"|"created"|"unreadable", "problem",
             "subject", "fingerprintSHA256", "notBefore", "notAfter" (ISO 8601), "certificate",
             "inspection", "canCreate", "canRemake", "canRemove"}, fields not known left out;
             export: {"file", "format"}; remove: {"removed", "turnedInspectionOff"}.
    Exit status: 0 done, 1 refused or failed (the reason on stderr), 2 a usage error.
    """
}
