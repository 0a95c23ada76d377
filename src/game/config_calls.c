/*
 * config_calls.c — opens libconfig when judge.conf is first read and fills
 * the table config.c calls it through (config_calls.h, util/dynlib.h).
 */
#define DJ_LIBCONFIG_LOADER
#include "game/config_calls.h"

#include <pthread.h>
#include <stdio.h>

#include "util/dynlib.h"

dj_libconfig_calls dj_libconfig;

static const char *const LIBRARY[] = {DJ_LIBCONFIG_SONAME};

static const dj_dynlib_fn FUNCTIONS[] = {
#define DJ_LIBCONFIG_FUNCTION(fn) {0, #fn, offsetof(dj_libconfig_calls, fn)},
    DJ_LIBCONFIG_CALLS(DJ_LIBCONFIG_FUNCTION)
#undef DJ_LIBCONFIG_FUNCTION
};

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
/* Why the table is empty; "" once it is full. */
static char load_error[256] = "judge.conf: libconfig was not loaded";

static void load(void)
{
    dj_libconfig_calls t = {0};
    if (dj_dynlib_fill(LIBRARY, 1, "reading judge.conf", FUNCTIONS,
                       sizeof FUNCTIONS / sizeof FUNCTIONS[0], &t, load_error,
                       sizeof load_error) != 0)
        return;
    dj_libconfig = t;
    load_error[0] = '\0';
}

int dj_libconfig_load(char *err, size_t errlen)
{
    pthread_once(&load_once, load);
    if (load_error[0] == '\0')
        return 0;
    snprintf(err, errlen, "%s", load_error);
    return -1;
}
