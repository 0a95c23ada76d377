/* SPDX-License-Identifier: MIT */
/*
 * tls_check.c — see tls_check.h.  Verification is GnuTLS's own (the
 * library libetpan was built with): the chain the server sent, as libetpan
 * hands it over, checked against a trust list and the host name.
 */
#define _POSIX_C_SOURCE 200809L

#include "mail/tls_check.h"

#include <arpa/inet.h>
#include <gnutls/gnutls.h>
#include <gnutls/x509.h>
#include <stdio.h>
#include <string.h>

/* A longer chain than any real server sends is refused, not truncated. */
#define MAX_CHAIN 16

static bool is_ip_address(const char *host)
{
    unsigned char buf[sizeof(struct in6_addr)];
    return inet_pton(AF_INET, host, buf) == 1 ||
           inet_pton(AF_INET6, host, buf) == 1;
}

void dj_tls_sni(struct mailstream_ssl_context *ctx, void *data)
{
    const char *host = data;
    if (host && host[0] && !is_ip_address(host))
        mailstream_ssl_set_server_name(ctx, (char *)host);
}

/* The trust list: the CA file alone when given, else the system's. */
static dj_mail_status load_trust(gnutls_x509_trust_list_t *tl,
                                 const dj_tls_trust *trust, const char *proto,
                                 char *err, size_t errlen)
{
    if (gnutls_x509_trust_list_init(tl, 0) < 0)
        return dj_mail_fail(err, errlen, DJ_MAIL_TEMPFAIL, "out of memory");
    const char *ca = trust && trust->ca_file && trust->ca_file[0]
                         ? trust->ca_file
                         : NULL;
    int n = ca ? gnutls_x509_trust_list_add_trust_file(
                     *tl, ca, NULL, GNUTLS_X509_FMT_PEM, 0, 0)
               : gnutls_x509_trust_list_add_system_trust(*tl, 0, 0);
    if (n > 0)
        return DJ_MAIL_OK;
    gnutls_x509_trust_list_deinit(*tl, 1);
    *tl = NULL;
    if (ca)
        return dj_mail_fail(err, errlen, DJ_MAIL_PERMFAIL,
                            "%s: tls_ca_file %s holds no usable CA "
                            "certificate%s%s",
                            proto, ca, n < 0 ? ": " : "",
                            n < 0 ? gnutls_strerror(n) : "");
    return dj_mail_fail(err, errlen, DJ_MAIL_PERMFAIL,
                        "%s: the system has no CA certificates to verify "
                        "the server with (install ca-certificates, or set "
                        "tls_ca_file)",
                        proto);
}

/* The chain as GnuTLS certificates; returns how many (0: none usable). */
static unsigned import_chain(carray *chain, gnutls_x509_crt_t *crt)
{
    unsigned n = 0;
    for (unsigned i = 0; chain && i < carray_count(chain) && n < MAX_CHAIN;
         i++) {
        MMAPString *der = carray_get(chain, i);
        gnutls_datum_t d = {(unsigned char *)der->str, (unsigned)der->len};
        if (gnutls_x509_crt_init(&crt[n]) < 0)
            break;
        if (gnutls_x509_crt_import(crt[n], &d, GNUTLS_X509_FMT_DER) < 0) {
            gnutls_x509_crt_deinit(crt[n]);
            break;
        }
        n++;
    }
    return n;
}

/* Why the chain failed, in GnuTLS's words (the first sentence of it). */
static void status_text(unsigned status, char *out, size_t outlen)
{
    gnutls_datum_t text = {NULL, 0};
    snprintf(out, outlen, "verification status %#x", status);
    if (gnutls_certificate_verification_status_print(
            status, GNUTLS_CRT_X509, &text, 0) == 0 && text.data) {
        snprintf(out, outlen, "%s", (const char *)text.data);
        gnutls_free(text.data);
    }
    size_t n = strlen(out);
    while (n > 0 && out[n - 1] == ' ')
        out[--n] = '\0';
}

dj_mail_status dj_tls_check(mailstream *s, const char *proto,
                            const char *host, const dj_tls_trust *trust,
                            char *err, size_t errlen)
{
    if (trust && trust->insecure)
        return DJ_MAIL_OK;
    carray *chain = s ? mailstream_get_certificate_chain(s) : NULL;
    if (!chain || carray_count(chain) == 0) {
        if (chain)
            mailstream_certificate_chain_free(chain);
        return dj_mail_fail(err, errlen, DJ_MAIL_PERMFAIL,
                            "%s server %s sent no certificate", proto, host);
    }
    if (carray_count(chain) > MAX_CHAIN) {
        mailstream_certificate_chain_free(chain);
        return dj_mail_fail(err, errlen, DJ_MAIL_PERMFAIL,
                            "%s server %s sent a chain of more than %d "
                            "certificates",
                            proto, host, MAX_CHAIN);
    }
    gnutls_x509_crt_t crt[MAX_CHAIN];
    unsigned n = import_chain(chain, crt);
    bool whole = n == carray_count(chain);
    mailstream_certificate_chain_free(chain);

    gnutls_x509_trust_list_t tl = NULL;
    dj_mail_status st = DJ_MAIL_OK;
    if (!whole)
        st = dj_mail_fail(err, errlen, DJ_MAIL_PERMFAIL,
                          "%s server %s sent a certificate that cannot be "
                          "read",
                          proto, host);
    if (st == DJ_MAIL_OK)
        st = load_trust(&tl, trust, proto, err, errlen);
    if (st == DJ_MAIL_OK) {
        unsigned status = 0;
        int r = gnutls_x509_trust_list_verify_crt(tl, crt, n, 0, &status,
                                                  NULL);
        if (r < 0 || status != 0) {
            char why[256];
            if (r < 0)
                snprintf(why, sizeof why, "%s", gnutls_strerror(r));
            else
                status_text(status, why, sizeof why);
            st = dj_mail_fail(err, errlen, DJ_MAIL_PERMFAIL,
                              "%s server %s: its certificate is not trusted "
                              "(%s); set tls_ca_file to the authority that "
                              "signed it",
                              proto, host, why);
        } else if (!gnutls_x509_crt_check_hostname(crt[0], host)) {
            st = dj_mail_fail(err, errlen, DJ_MAIL_PERMFAIL,
                              "%s server %s: its certificate is for another "
                              "host name; set host to a name the "
                              "certificate gives",
                              proto, host);
        }
        gnutls_x509_trust_list_deinit(tl, 1);
    }
    for (unsigned i = 0; i < n; i++)
        gnutls_x509_crt_deinit(crt[i]);
    return st;
}
