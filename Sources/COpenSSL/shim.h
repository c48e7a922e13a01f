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
static inline int tv_inspection_set_session_versions(SSL *ssl, int minimum, int maximum) {
    return SSL_set_min_proto_version(ssl, minimum) == 1 && SSL_set_max_proto_version(ssl, maximum) == 1;
}
static inline long tv_inspection_set_groups(SSL *ssl, const char *list) {
    return SSL_set1_groups_list(ssl, list);
}
static inline long tv_inspection_set_sigalgs(SSL *ssl, const char *list) {
    return SSL_set1_sigalgs_list(ssl, list);
}
/* The ciphers a session of this SSL could offer (its versions and security level applied); the
   SSL_CIPHER pointers are the library's own and outlive the stack. */
static inline int tv_inspection_supported_ciphers(SSL *ssl, const SSL_CIPHER **out, int capacity) {
    STACK_OF(SSL_CIPHER) *stack = SSL_get1_supported_ciphers(ssl);
    if (stack == NULL) return 0;
    int count = sk_SSL_CIPHER_num(stack);
    if (count > capacity) count = capacity;
    for (int i = 0; i < count; i++) out[i] = sk_SSL_CIPHER_value(stack, i);
    sk_SSL_CIPHER_free(stack);
    return count;
}
