/* SPDX-License-Identifier: MIT */
/*
 * schema.h — private to src/store: the schema and its migrations.
 */
#ifndef DJ_STORE_SCHEMA_H
#define DJ_STORE_SCHEMA_H

#include "store/store.h"

/*
 * Bring the open database to DJ_STORE_SCHEMA_VERSION, one migration per
 * version, each in its own transaction together with the new
 * user_version.  Refuses a database newer than this program.
 */
int dj_schema_migrate(dj_store *s);

#endif
