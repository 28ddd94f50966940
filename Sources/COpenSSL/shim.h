// OpenSSL 3 as Swift sees it. Function-like macros are invisible to Swift, so
// each one used gets a one-line static inline wrapper here, prefixed COpenSSL_.
// This is the only place macros are touched.
#ifndef COPENSSL_SHIM_H
#define COPENSSL_SHIM_H
#include <openssl/ssl.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/pkcs12.h>
#include <openssl/evp.h>
#include <openssl/ec.h>
#include <openssl/ecdsa.h>
#include <openssl/bn.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <openssl/provider.h>
#include <openssl/bio.h>
#include <openssl/rand.h>
#include <openssl/crypto.h>
#include <openssl/opensslv.h>
#include <openssl/asn1.h>
#include <openssl/objects.h>
#include <openssl/core_names.h>
#include <openssl/cms.h>

static inline int COpenSSL_X509_LOOKUP_add_dir(X509_LOOKUP *x, const char *name, int type) { return X509_LOOKUP_add_dir(x, name, type); }
static inline long COpenSSL_BIO_get_mem_data(BIO *b, char **pp) { return BIO_get_mem_data(b, pp); }
static inline void COpenSSL_OPENSSL_free(void *p) { OPENSSL_free(p); }

static inline int COpenSSL_sk_X509_num(const STACK_OF(X509) *sk) { return sk_X509_num(sk); }
static inline X509 *COpenSSL_sk_X509_value(const STACK_OF(X509) *sk, int i) { return sk_X509_value(sk, i); }
static inline X509 *COpenSSL_sk_X509_shift(STACK_OF(X509) *sk) { return sk_X509_shift(sk); }
static inline STACK_OF(X509) *COpenSSL_sk_X509_new_null(void) { return sk_X509_new_null(); }
static inline int COpenSSL_sk_X509_push(STACK_OF(X509) *sk, X509 *x) { return sk_X509_push(sk, x); }
static inline void COpenSSL_sk_X509_pop_free(STACK_OF(X509) *sk) { sk_X509_pop_free(sk, X509_free); }
static inline void COpenSSL_sk_X509_free(STACK_OF(X509) *sk) { sk_X509_free(sk); }

static inline long COpenSSL_SSL_CTX_set_min_proto_version(SSL_CTX *ctx, int v) { return SSL_CTX_set_min_proto_version(ctx, v); }
static inline long COpenSSL_SSL_CTX_add1_chain_cert(SSL_CTX *ctx, X509 *x) { return SSL_CTX_add1_chain_cert(ctx, x); }
static inline long COpenSSL_SSL_CTX_set_mode(SSL_CTX *ctx, long mode) { return SSL_CTX_set_mode(ctx, mode); }
static inline long COpenSSL_SSL_set_tlsext_host_name(SSL *s, const char *name) { return SSL_set_tlsext_host_name(s, name); }
static inline const char *COpenSSL_SSL_get_servername(const SSL *s) { return SSL_get_servername(s, TLSEXT_NAMETYPE_host_name); }
static inline uint64_t COpenSSL_SSL_OP_NO_COMPRESSION(void) { return SSL_OP_NO_COMPRESSION; }
static inline uint64_t COpenSSL_SSL_OP_ALL(void) { return SSL_OP_ALL; }
static inline uint64_t COpenSSL_SSL_OP_NO_RENEGOTIATION(void) { return SSL_OP_NO_RENEGOTIATION; }
static inline unsigned long COpenSSL_XN_FLAG_ONELINE(void) { return XN_FLAG_ONELINE; }
static inline unsigned long COpenSSL_XN_FLAG_RFC2253(void) { return XN_FLAG_RFC2253; }
static inline void COpenSSL_OPENSSL_cleanse(void *p, size_t n) { OPENSSL_cleanse(p, n); }
static inline const char *COpenSSL_version_text(void) { return OpenSSL_version(OPENSSL_VERSION); }
// PKCS#12 structure walk for iteration counts (read before any key derivation).
static inline int COpenSSL_sk_PKCS7_num(const STACK_OF(PKCS7) *sk) { return sk_PKCS7_num(sk); }
static inline PKCS7 *COpenSSL_sk_PKCS7_value(const STACK_OF(PKCS7) *sk, int i) { return sk_PKCS7_value(sk, i); }
static inline void COpenSSL_sk_PKCS7_pop_free(STACK_OF(PKCS7) *sk) { sk_PKCS7_pop_free(sk, PKCS7_free); }
static inline int COpenSSL_sk_PKCS12_SAFEBAG_num(const STACK_OF(PKCS12_SAFEBAG) *sk) { return sk_PKCS12_SAFEBAG_num(sk); }
static inline PKCS12_SAFEBAG *COpenSSL_sk_PKCS12_SAFEBAG_value(const STACK_OF(PKCS12_SAFEBAG) *sk, int i) { return sk_PKCS12_SAFEBAG_value(sk, i); }
static inline void COpenSSL_sk_PKCS12_SAFEBAG_pop_free(STACK_OF(PKCS12_SAFEBAG) *sk) { sk_PKCS12_SAFEBAG_pop_free(sk, PKCS12_SAFEBAG_free); }
static inline int COpenSSL_PKCS7_type_nid(const PKCS7 *p7) { return p7->type ? OBJ_obj2nid(p7->type) : NID_undef; }
static inline const X509_ALGOR *COpenSSL_PKCS7_encrypted_algorithm(const PKCS7 *p7) {
    return (PKCS7_type_is_encrypted(p7) && p7->d.encrypted && p7->d.encrypted->enc_data) ? p7->d.encrypted->enc_data->algorithm : NULL;
}
#endif
