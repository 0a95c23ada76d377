/* SPDX-License-Identifier: MIT */
/*
 * fuzz_webform.c — what a browser (or anyone) sends judgeweb: a form
 * body, a Cookie header, and the HTML escaping every text goes through.
 * The first byte chooses.  Decoded fields must be NUL-free UTF-8 within
 * their bounds; escaped text must hold no byte that could open markup.
 */
#include "fuzzlib.h"

#include "util/buf.h"
#include "web/form.h"
#include "web/html.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    const char *text = (const char *)data + 1;
    size_t len = size - 1;
    switch (data[0] % 3) {
    case 0: {
        dj_form f;
        if (dj_form_parse(text, len, &f) < 0)
            break;
        if (f.n < 0 || f.n > DJ_FORM_MAX_FIELDS)
            abort();
        for (int i = 0; i < f.n; i++) {
            size_t vn = strlen(f.value[i]);
            if (strlen(f.name[i]) >= DJ_FORM_NAME_MAX || vn > len ||
                !dj_form_utf8_ok(f.value[i], vn))
                abort();
            if (dj_form_get(&f, f.name[i]) == NULL)
                abort();
        }
        dj_form_free(&f);
        break;
    }
    case 1: {
        char *header = fuzz_string((const uint8_t *)text, len);
        char value[80];
        static const char *const names[] = {"djs", "djc", "", "a"};
        for (int i = 0; i < 4; i++)
            if (dj_cookie_get(header, names[i], value, sizeof value) &&
                strlen(value) >= sizeof value)
                abort();
        free(header);
        break;
    }
    case 2: {
        char *s = fuzz_string((const uint8_t *)text, len);
        dj_buf out;
        dj_buf_init(&out);
        dj_html_text(&out, s);
        if (dj_buf_ok(&out) && strpbrk(out.data, "<>\"'"))
            abort();
        dj_buf_free(&out);
        free(s);
        break;
    }
    }
    return 0;
}
