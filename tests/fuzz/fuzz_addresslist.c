/* SPDX-License-Identifier: MIT */
/*
 * fuzz_addresslist.c — libFuzzer target for SET ADDRESS's list reader
 * (src/game/set_address.c, dj_address_list_read): arbitrary bytes, up to
 * the first NUL, as the word a player wrote after SET ADDRESS
 * ("a@x,b@y", "-a@x", anything).
 *
 * Besides the sanitizers' checks, it checks what the reader promises: on
 * success 1..max items, each NUL-terminated inside its array, each a
 * plain address (dj_address_ok), none twice (case-insensitive), and each
 * one of the list's comma-separated words (with its '-' for a removal);
 * on failure a reason and no item claimed.
 *
 * Build and run: make fuzz FUZZ_TARGETS=addresslist (tests/fuzz/fuzz.sh).
 */
#include "game/signon.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *list = malloc(size + 1);
    if (!list)
        return 0;
    memcpy(list, data, size);
    list[size] = '\0';
    int max = size ? 1 + data[0] % DJ_ADDRESS_LIST_MAX : DJ_ADDRESS_LIST_MAX;
    dj_address_item items[DJ_ADDRESS_LIST_MAX];
    char why[640];
    int n = -1;
    int rc = dj_address_list_read(list, items, max, &n, why, sizeof why);
    if (rc < 0) {
        if (!why[0] || !memchr(why, '\0', sizeof why))
            abort();
    } else {
        if (rc != 0 || n < 1 || n > max)
            abort();
        for (int i = 0; i < n; i++) {
            const char *a = items[i].address;
            if (!memchr(a, '\0', sizeof items[i].address) ||
                !dj_address_ok(a))
                abort();
            for (int k = 0; k < i; k++)
                if (strcasecmp(items[k].address, a) == 0)
                    abort();
            /* the word as written is in the list */
            char word[DJ_ADDRESS_LEN + 2];
            size_t len = strlen(a);
            word[0] = '-';
            memcpy(word + 1, a, len + 1);
            if (!strstr(list, items[i].remove ? word : word + 1))
                abort();
        }
    }
    free(list);
    return 0;
}
