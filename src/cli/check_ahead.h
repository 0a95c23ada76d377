/*
 * check_ahead.h — the cases of one case file, read ahead on a second
 * thread while `judgectl check` adjudicates the ones before (cli room).
 *
 * Reading a case (its lines, its names, its orders) costs about as much
 * as adjudicating it, and the two do not depend on each other: so where
 * the machine has a second processor, a reader thread fills a small ring
 * of cases while the caller takes them in file order.  What is printed,
 * and in what order, is exactly what a single thread gives:
 * `judgectl check --serial` reads on the caller's thread, and
 * tests/scripts/check-ahead.sh holds the two to the same output on every
 * case file of tests/.
 *
 * Who owns what: a case handed out stays the caller's, untouched, until
 * the next check_ahead_next() or check_ahead_close(); the reader thread
 * writes only slots the caller has given back.  The case file is used by
 * the reader thread only, from check_ahead_open() to check_ahead_close();
 * the map handed out with a case stays valid until then (a case file
 * keeps every map it loads, dj_casefile_map()).
 */
#ifndef DJ_CLI_CHECK_AHEAD_H
#define DJ_CLI_CHECK_AHEAD_H

#include <stdbool.h>
#include <stddef.h>

#include "casefile/casefile.h"

typedef struct check_ahead check_ahead;

/* Start reading cf (which it owns from now on, and closes); `serial`, or
 * a machine with one processor, reads on the caller's thread instead.
 * NULL if out of memory, cf then closed. */
check_ahead *check_ahead_open(dj_casefile *cf, bool serial);

/*
 * The next case: DJ_CASE_OK with *c and *map set, DJ_CASE_ERROR with the
 * message in err (err is "" otherwise), or DJ_CASE_EOF, after which every
 * call gives DJ_CASE_EOF again.
 */
dj_case_status check_ahead_next(check_ahead *a, const dj_case **c,
                                const dj_map **map, char *err,
                                size_t errlen);

/* Is the file read on a second thread? */
bool check_ahead_threaded(const check_ahead *a);

/* Seconds spent reading the file so far (on whichever thread read it),
 * and of them the caller's: the reading itself when serial, the waits
 * for the reader thread when not. */
double check_ahead_read_seconds(check_ahead *a);
double check_ahead_wait_seconds(const check_ahead *a);

/* Stop the reader (at once, if cases are left unread), close the case
 * file and free everything. */
void check_ahead_close(check_ahead *a);

#endif
