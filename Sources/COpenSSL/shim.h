#include <openssl/ssl.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/x509.h>
#include <openssl/crypto.h>
#include <openssl/kdf.h>
#include <openssl/params.h>
#include <openssl/rand.h>
#include <openssl/pem.h>
#include <openssl/x509v3.h>

/* Linux/Inspection's sessions: OpenSSL macros, which do not import into Swift. */
static inline long tv_inspection_set_sni(SSL *ssl, const char *host) {
    return SSL_set_tlsext_host_name(ssl, host);
}
static inline long tv_inspection_set_min_version(SSL_CTX *context, int version) {
    return SSL_CTX_set_min_proto_version(context, version);
}
static inline void tv_inspection_disable_renegotiation(SSL_CTX *context) {
    SSL_CTX_set_options(context, SSL_OP_NO_RENEGOTIATION);
}
