/*
 * config_calls.c — opens libconfig when judge.conf is first read and fills
 * the table judge_conf.c calls it through (config_calls.h, util/dynlib.h).
 */
#define DJ_LIBCONFIG_LOADER
#include "conf/config_calls.h"

#include "util/dynlib.h"

dj_libconfig_calls dj_libconfig;

static const char *const LIBRARY[] = {DJ_LIBCONFIG_SONAME};

static const dj_dynlib_fn FUNCTIONS[] = {
#define DJ_LIBCONFIG_FUNCTION(fn) {0, #fn, offsetof(dj_libconfig_calls, fn)},
    DJ_LIBCONFIG_CALLS(DJ_LIBCONFIG_FUNCTION)
#undef DJ_LIBCONFIG_FUNCTION
};

static dj_dynlib libconfig_lib =
    DJ_DYNLIB_INIT(LIBRARY, "reading judge.conf", FUNCTIONS, dj_libconfig);

int dj_libconfig_load(char *err, size_t errlen)
{
    return dj_dynlib_load(&libconfig_lib, err, errlen);
}
