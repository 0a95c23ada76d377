/* SPDX-License-Identifier: MIT */
/*
 * conf_warnings.h — settings in force that work but put the judge at
 * risk, said in words: judged logs them at start and `judged config`
 * prints them.
 *
 *   - judge.conf holds a mail password (inbound or outbound) and others
 *     than its owner may read it;
 *   - tls = "none" towards a mail server that is not on this machine
 *     (loopback): the password and every player's mail cross the network
 *     in the clear.
 */
#ifndef DJ_CONF_CONF_WARNINGS_H
#define DJ_CONF_CONF_WARNINGS_H

#include "game/config.h"
#include "util/buf.h"

/* Append one line per warning to out ("judge.conf ... ."); how many. */
int dj_config_warnings(const dj_config *c, dj_buf *out);

#endif
