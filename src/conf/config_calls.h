/*
 * config_calls.h — private to conf/judge_conf.c: libconfig reached through a
 * table filled when judge.conf is first read (util/dynlib.h says why and
 * how: a program linked with libconfig loads and relocates it before
 * main(), which `judgectl check` never needs).
 */
#ifndef DJ_GAME_CONFIG_CALLS_H
#define DJ_GAME_CONFIG_CALLS_H

#include <libconfig.h>
#include <stddef.h>

/* The run-time name of the library whose ABI <libconfig.h> describes. */
#define DJ_LIBCONFIG_SONAME "libconfig.so.9"

/* Every libconfig function judge_conf.c calls, one X(name) each (the
 * accessors <libconfig.h> defines as macros read the structs directly). */
#define DJ_LIBCONFIG_CALLS(X)                                                  \
    X(config_destroy)                                                          \
    X(config_init)                                                             \
    X(config_read_string)                                                      \
    X(config_setting_get_bool)                                                 \
    X(config_setting_get_elem)                                                 \
    X(config_setting_get_int)                                                  \
    X(config_setting_get_string)                                               \
    X(config_setting_length)

typedef struct dj_libconfig_calls {
#define DJ_LIBCONFIG_MEMBER(fn) __typeof__(fn) *fn;
    DJ_LIBCONFIG_CALLS(DJ_LIBCONFIG_MEMBER)
#undef DJ_LIBCONFIG_MEMBER
} dj_libconfig_calls;

/* The table: all NULL until dj_libconfig_load() has succeeded, then read
 * only. */
extern dj_libconfig_calls dj_libconfig;

/* Open libconfig and fill the table, once per process (thread-safe); 0,
 * or -1 with the reason in err. */
int dj_libconfig_load(char *err, size_t errlen);

#ifndef DJ_LIBCONFIG_LOADER /* config_calls.c names the members themselves */
#define config_destroy (dj_libconfig.config_destroy)
#define config_init (dj_libconfig.config_init)
#define config_read_string (dj_libconfig.config_read_string)
#define config_setting_get_bool (dj_libconfig.config_setting_get_bool)
#define config_setting_get_elem (dj_libconfig.config_setting_get_elem)
#define config_setting_get_int (dj_libconfig.config_setting_get_int)
#define config_setting_get_string (dj_libconfig.config_setting_get_string)
#define config_setting_length (dj_libconfig.config_setting_length)
#endif

#endif
