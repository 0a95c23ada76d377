/* SPDX-License-Identifier: MIT */
/*
 * open_check.h — private to src/store: why a database file cannot be
 * opened, in words an admin can act on.
 */
#ifndef DJ_STORE_OPEN_CHECK_H
#define DJ_STORE_OPEN_CHECK_H

#include <stdbool.h>
#include <stddef.h>

#include "store/store.h"

/*
 * Before SQLite opens `path`: 0 when the running user may read and write
 * the file (or, with `create`, make it) and its folder (SQLite keeps the
 * -wal and -shm files there); else the failure, with a message naming the
 * file or folder, its owner and mode, the user running and the system's
 * reason.  A file that does not exist without `create` is
 * DJ_STORE_OPEN_MISSING.
 */
int st_open_check(const char *path, bool create, char *err, size_t errlen);

#endif
