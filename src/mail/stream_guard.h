/* SPDX-License-Identifier: MIT */
/*
 * stream_guard.h — make libetpan's IMAP parser stop when the server hangs
 * up.
 *
 * libetpan's response parser, in the middle of a list (a FETCH, a
 * CAPABILITY...), reads again whenever the stream returns no bytes; when
 * the server has closed the connection that is for ever, at full speed
 * (found by tests/fuzz/fuzz_mailserver.c: a reply cut short spins judged
 * at 100% CPU).  The guard wraps the stream's lower layer so that end of
 * stream comes back as an error, which every parser turns into
 * MAILIMAP_ERROR_STREAM; everything else (TLS, certificates, IDLE,
 * timeouts) is passed to the layer it wraps.
 */
#ifndef DJ_MAIL_STREAM_GUARD_H
#define DJ_MAIL_STREAM_GUARD_H

#include <stdbool.h>

#include <libetpan/libetpan.h>

/*
 * Wrap s's current lower layer (again after STARTTLS replaced it; a layer
 * already guarded is left alone).  false when out of memory (s unchanged).
 */
bool dj_stream_guard(mailstream *s);

#endif
