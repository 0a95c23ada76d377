/* SPDX-License-Identifier: MIT */
/*
 * tls_check.h — is the server at the other end of a TLS connection the one
 * we meant to reach?
 *
 * Debian's libetpan (GnuTLS build) encrypts but never verifies: anyone on
 * the path could present any certificate and read the judge's IMAP, POP3
 * or SMTP password and every player's orders.  So each transport, once
 * its TLS handshake is done (implicit TLS or after STARTTLS/STLS) and
 * before it sends a password, a command or a message, asks dj_tls_check:
 * the certificate chain the server sent must lead to a trusted authority
 * (the system's, or only those of the configured CA file) and name the
 * host we connected to.  A failure is permanent (the admin must fix the
 * certificate, the host name or the setting), and its sentence says which.
 *
 * Turning verification off is an explicit setting (tls_verify = false in
 * judge.conf); nothing here turns it off by itself.
 */
#ifndef DJ_MAIL_TLS_CHECK_H
#define DJ_MAIL_TLS_CHECK_H

#include <stddef.h>

#include <libetpan/libetpan.h>

#include "mail/transport.h"

/*
 * Check the certificate chain of stream s (a TLS stream) for host.
 * DJ_MAIL_OK when trusted (or when trust->insecure), else DJ_MAIL_PERMFAIL
 * with the reason in err ("certificate for ... is not trusted: ...").
 * `proto` ("IMAP", "POP3", "SMTP") begins the sentence.
 */
dj_mail_status dj_tls_check(mailstream *s, const char *proto,
                            const char *host, const dj_tls_trust *trust,
                            char *err, size_t errlen);

/*
 * libetpan's connect-with-callback hook: sends the host name (data, a
 * const char *) in the handshake (SNI), so a server with several names
 * picks the right certificate.  Not sent for an IP address (RFC 6066).
 */
void dj_tls_sni(struct mailstream_ssl_context *ctx, void *data);

#endif
