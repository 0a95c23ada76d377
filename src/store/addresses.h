/* SPDX-License-Identifier: MIT */
/*
 * addresses.h — a player's further addresses (schema version 20, table
 * participant_addresses): up to DJ_ADDRESSES_MAX - 1 addresses beside
 * participants.email, each confirmed by code before it is stored here
 * (game/addresses.c).  participants.email stays the participant's first
 * address; the rows here are only the others, so no address is stored
 * twice.  dj_store_participant_list fills a record's `more` from them.
 */
#ifndef DJ_STORE_ADDRESSES_H
#define DJ_STORE_ADDRESSES_H

#include <stdint.h>

#include "store/participants.h"
#include "store/store.h"

/* Store one further address of participant pid. */
int dj_store_address_add(dj_store *s, int64_t pid, const char *email,
                         int64_t now);

/* Remove one (case-insensitive): 0, DJ_STORE_NOTFOUND or -1. */
int dj_store_address_remove(dj_store *s, int64_t pid, const char *email);

/* Fill p[i].more and p[i].nmore of n records (their further addresses,
 * oldest first): 0 or -1. */
int dj_store_address_fill(dj_store *s, dj_participant_rec *p, int n);

#endif
