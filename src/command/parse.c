/*
 * parse.c — reading a message into commands.  See parse.h.
 *
 * A line is split into words (spaces, tabs, and the no-break spaces HTML
 * mail is full of); the first word, in any case, picks the command from
 * one table, and the command's own small function reads its arguments.
 * A command whose arguments are wrong is still that command (CMD_BAD with
 * the reason), never an order line: "SIGNON" without a password must not
 * end up in front of the order reader, and its echo must still be masked.
 */
#define _POSIX_C_SOURCE 200809L

#include "command/parse.h"
#include "command/recipients.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MAX_WORDS 64

typedef struct words {
    int n;
    char *w[MAX_WORDS];
    const char *at[MAX_WORDS]; /* where each word starts in the line */
    char buf[CMD_LINE_MAX];
} words;

static bool is_space(const char *s)
{
    return *s == ' ' || *s == '\t' || *s == '\r' || *s == '\f' ||
           *s == '\v' || ((unsigned char)s[0] == 0xC2 &&
                          (unsigned char)s[1] == 0xA0);
}

static size_t space_len(const char *s)
{
    return (unsigned char)*s == 0xC2 ? 2 : 1;
}

/* Split a copy of `line` into words; words past MAX_WORDS are dropped
 * (no command has that many: such a line is an order line or nonsense,
 * and those are kept whole in cmd.text). */
static void split(const char *line, words *ws)
{
    ws->n = 0;
    snprintf(ws->buf, sizeof ws->buf, "%s", line);
    char *p = ws->buf;
    while (*p) {
        while (*p && is_space(p)) {
            size_t k = space_len(p);
            memset(p, '\0', k);
            p += k;
        }
        if (!*p)
            break;
        if (ws->n == MAX_WORDS)
            break;
        ws->at[ws->n] = line + (p - ws->buf);
        ws->w[ws->n++] = p;
        while (*p && !is_space(p))
            p++;
    }
}

/* The original text from word i to the end of the line, trimmed. */
static void rest_from(const words *ws, int i, char *out, size_t len)
{
    if (i >= ws->n) {
        snprintf(out, len, "%s", "");
        return;
    }
    snprintf(out, len, "%s", ws->at[i]);
    size_t n = strlen(out);
    while (n && is_space(out + n - 1))
        out[--n] = '\0';
    /* a trailing no-break space leaves its first byte */
    while (n && (unsigned char)out[n - 1] == 0xC2)
        out[--n] = '\0';
}

static bool word_is(const char *w, const char *name)
{
    return strcasecmp(w, name) == 0;
}

static bool copy_word(char *out, size_t len, const char *w)
{
    if (strlen(w) >= len)
        return false;
    memcpy(out, w, strlen(w) + 1);
    return true;
}

static void bad(cmd *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void bad(cmd *c, const char *fmt, ...)
{
    c->kind = CMD_BAD;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->error, sizeof c->error, fmt, ap);
    va_end(ap);
}

/* ---- the echo ------------------------------------------------------------- */

/* Echo the line with words [from, to) masked (to < 0: to the end). */
static void mask_words(const words *ws, int from, int to, cmd *c)
{
    c->echo[0] = '\0';
    size_t used = 0;
    for (int i = 0; i < ws->n; i++) {
        bool hide = i >= from && (to < 0 || i < to);
        int k = snprintf(c->echo + used, sizeof c->echo - used, "%s%s",
                         i ? " " : "", hide ? CMD_MASK : ws->w[i]);
        if (k < 0 || (size_t)k >= sizeof c->echo - used)
            break;
        used += (size_t)k;
    }
}

/* Levenshtein distance of two short words, capped at 9. */
static int distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 16 || lb > 16)
        return 9;
    int d[17][17];
    for (size_t i = 0; i <= la; i++)
        d[i][0] = (int)i;
    for (size_t k = 0; k <= lb; k++)
        d[0][k] = (int)k;
    for (size_t i = 1; i <= la; i++)
        for (size_t k = 1; k <= lb; k++) {
            int cost = toupper((unsigned char)a[i - 1]) !=
                       toupper((unsigned char)b[k - 1]);
            int best = d[i - 1][k - 1] + cost;
            if (d[i - 1][k] + 1 < best)
                best = d[i - 1][k] + 1;
            if (d[i][k - 1] + 1 < best)
                best = d[i][k - 1] + 1;
            d[i][k] = best;
        }
    return d[la][lb] > 9 ? 9 : d[la][lb];
}

/*
 * A line that is no command but looks like a misspelt command carrying a
 * password ("SIGON Fdemo secret", "SIGN ON Fdemo secret", "SET PASWORD
 * x"): keep its first words, mask the rest, because the password in it is
 * still a password.
 */
static void mask_near_miss(const words *ws, cmd *c)
{
    if (ws->n < 2)
        return;
    const char *w = ws->w[0];
    int keep = 0;
    if (distance(w, "SIGNON") <= 2 || distance(w, "SIGNIN") <= 1 ||
        distance(w, "LOGIN") <= 1 || distance(w, "OBSERVE") <= 2 ||
        distance(w, "CREATE") <= 1 || distance(w, "JOIN") <= 1)
        keep = 2;
    if (word_is(w, "SIGN") && ws->n > 2 && distance(ws->w[1], "ON") <= 1)
        keep = 3;
    if (distance(w, "SET") <= 1 && distance(ws->w[1], "PASSWORD") <= 3)
        keep = 2;
    if (distance(w, "PASSWORD") <= 2)
        keep = 1;
    if (keep && ws->n > keep)
        mask_words(ws, keep, -1, c);
}

/* ---- commands ------------------------------------------------------------------ */

/* "demo", or the game part of "france@demo" / "Fdemo" for SIGNON. */
static bool game_word(cmd *c, const char *w)
{
    if (!copy_word(c->game, sizeof c->game, w) || !*w) {
        bad(c, "the game name '%.60s' is too long", w);
        return false;
    }
    return true;
}

/* SIGNON ID PASSWORD; ID is POWER@GAME, MASTER@GAME or a letter + game. */
static void parse_signon(const words *ws, cmd *c)
{
    mask_words(ws, 1, -1, c);
    if (ws->n != 3) {
        bad(c, "%s", ws->n < 3 ? "SIGNON needs who and the game, then the "
                                 "password: SIGNON Fdemo PASSWORD or SIGNON "
                                 "france@demo PASSWORD"
                               : "SIGNON takes two words: who@game and the "
                                 "password");
        return;
    }
    const char *id = ws->w[1], *at = strchr(id, '@');
    if (at) {
        size_t n = (size_t)(at - id);
        if (n == 0 || n >= sizeof c->who) {
            bad(c, "%s", "SIGNON who@game: who is missing or too long");
            return;
        }
        memcpy(c->who, id, n);
        c->who[n] = '\0';
        if (!game_word(c, at + 1))
            return;
    } else {
        if (strlen(id) < 2 || !isalpha((unsigned char)id[0])) {
            bad(c, "%s", "SIGNON needs the power's letter and the game "
                         "(Fdemo) or power@game");
            return;
        }
        c->who[0] = (char)toupper((unsigned char)id[0]);
        c->who[1] = '\0';
        if (!game_word(c, id + 1))
            return;
    }
    if (!*c->game) {
        bad(c, "%s", "SIGNON: the game is missing");
        return;
    }
    if (!copy_word(c->password, sizeof c->password, ws->w[2])) {
        bad(c, "%s", "the password is too long");
        return;
    }
    mask_words(ws, 2, -1, c);
    c->kind = CMD_SIGNON;
}

/* JOIN GAME PASSWORD, JOIN POWER@GAME PASSWORD, OBSERVE GAME PASSWORD,
 * CREATE GAME PASSWORD [SETTINGS...]. */
static void parse_game_password(const words *ws, cmd *c, cmd_kind kind)
{
    const char *name = kind == CMD_JOIN       ? "JOIN"
                       : kind == CMD_OBSERVE  ? "OBSERVE"
                       : kind == CMD_TAKEOVER ? "TAKEOVER"
                                              : "CREATE";
    mask_words(ws, 1, -1, c);
    if (ws->n < 3 || (kind != CMD_CREATE && ws->n > 3)) {
        bad(c, ws->n < 3 ? "%s needs the game and a password"
                         : "%s takes the game and a password only",
            name);
        return;
    }
    const char *g = ws->w[1],
               *at = kind == CMD_JOIN || kind == CMD_TAKEOVER ? strchr(g, '@')
                                                              : NULL;
    if (kind == CMD_TAKEOVER && !at) {
        bad(c, "%s", "TAKEOVER power@game password: which power?");
        return;
    }
    if (at) {
        size_t n = (size_t)(at - g);
        if (n == 0 || n >= sizeof c->who) {
            bad(c, "%s power@game: the power is missing or too long", name);
            return;
        }
        memcpy(c->who, g, n);
        c->who[n] = '\0';
        g = at + 1;
    }
    if (!game_word(c, g))
        return;
    if (!*c->game) {
        bad(c, "%s: the game is missing", name);
        return;
    }
    if (!copy_word(c->password, sizeof c->password, ws->w[2])) {
        bad(c, "%s", "the password is too long");
        return;
    }
    mask_words(ws, 2, 3, c);
    if (kind == CMD_CREATE)
        rest_from(ws, 3, c->arg, sizeof c->arg);
    c->kind = kind;
}

/* SET ABSENCE FROM [TO TO], SET ABSENCE CLEAR. */
static void parse_absence(const words *ws, cmd *c)
{
    if (ws->n < 3) {
        bad(c, "%s", "SET ABSENCE needs a date: SET ABSENCE 2027-01-09 [TO "
                     "2027-01-12]");
        return;
    }
    if (ws->n == 3 && word_is(ws->w[2], "CLEAR")) {
        c->kind = CMD_NOABSENCE;
        return;
    }
    int to = -1;
    for (int i = 3; i < ws->n && to < 0; i++)
        if (word_is(ws->w[i], "TO"))
            to = i;
    char all[CMD_LINE_MAX];
    rest_from(ws, 2, all, sizeof all);
    if (to < 0) {
        snprintf(c->arg, sizeof c->arg, "%s", all);
    } else {
        size_t n = (size_t)(ws->at[to] - ws->at[2]);
        snprintf(c->arg, sizeof c->arg, "%.*s", (int)n, ws->at[2]);
        size_t k = strlen(c->arg);
        while (k && (c->arg[k - 1] == ' ' || c->arg[k - 1] == '\t'))
            c->arg[--k] = '\0';
        rest_from(ws, to + 1, c->arg2, sizeof c->arg2);
        if (!*c->arg2) {
            bad(c, "%s", "SET ABSENCE ... TO needs the end date");
            return;
        }
    }
    c->kind = CMD_ABSENCE;
}

/* SET KEY VALUE / SET KEY=VALUE: the master's game settings. */
static void parse_setting(const words *ws, cmd *c)
{
    const char *key = ws->w[1];
    char value[CMD_LINE_MAX];
    if (strchr(key, '=')) {
        /* "SET deadline=2027-01-09 20:00": the value may have spaces */
        rest_from(ws, 1, c->arg, sizeof c->arg);
        c->kind = CMD_SETTING;
        return;
    }
    rest_from(ws, 2, value, sizeof value);
    if (!*value) {
        bad(c, "SET %.60s needs a value", key);
        return;
    }
    size_t kl = strlen(key), vl = strlen(value);
    if (kl + vl + 2 > sizeof c->arg) {
        bad(c, "%s", "the setting is too long");
        return;
    }
    memcpy(c->arg, key, kl);
    c->arg[kl] = '=';
    memcpy(c->arg + kl + 1, value, vl + 1);
    c->kind = CMD_SETTING;
}

/* SET ...: the player's own settings, then the master's game settings. */
static void parse_set(const words *ws, cmd *c)
{
    if (ws->n < 2) {
        bad(c, "%s", "SET what?");
        return;
    }
    const char *w = ws->w[1];
    bool no = word_is(w, "NO") && ws->n > 2;
    const char *what = no ? ws->w[2] : w;
    int args = ws->n - (no ? 3 : 2);
    static const struct {
        const char *word, *noword;
        cmd_kind yes, not;
    } flags[] = {
        {"WAIT", "NOWAIT", CMD_WAIT, CMD_NOWAIT},
        {"DRAW", "NODRAW", CMD_DRAW, CMD_NODRAW},
        {"CONCEDE", "NOCONCEDE", CMD_CONCEDE, CMD_NOCONCEDE},
        {"ABSENCE", "NOABSENCE", CMD_ABSENCE, CMD_NOABSENCE},
    };
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++) {
        bool yes = word_is(what, flags[i].word) && !no;
        bool not = word_is(what, flags[i].noword) ||
                   (no && word_is(what, flags[i].word));
        if (!yes && !not)
            continue;
        if (yes && flags[i].yes == CMD_DRAW && args == 1 &&
            (word_is(ws->w[2], "DIAS") || word_is(ws->w[2], "NAMED")))
            break; /* SET DRAW NAMED: the game's setting (draw=named) */
        if (yes && flags[i].yes == CMD_DRAW && args > 0) {
            /* SET DRAW France Germany: a named draw */
            rest_from(ws, 2, c->arg, sizeof c->arg);
            c->kind = CMD_DRAW;
            return;
        }
        if (yes && flags[i].yes == CMD_CONCEDE) {
            if (args != 1 || !copy_word(c->who, sizeof c->who, ws->w[2]))
                bad(c, "%s", "SET CONCEDE needs the power you concede to");
            else
                c->kind = CMD_CONCEDE;
            return;
        }
        if (yes && flags[i].yes == CMD_ABSENCE) {
            parse_absence(ws, c);
            return;
        }
        if (args != 0) {
            bad(c, "SET %.20s takes nothing more", what);
            return;
        }
        c->kind = yes ? flags[i].yes : flags[i].not;
        return;
    }
    if (word_is(w, "PASSWORD")) {
        mask_words(ws, 2, -1, c);
        if (ws->n != 3)
            bad(c, "%s", "SET PASSWORD needs one word, the new password");
        else if (!copy_word(c->password, sizeof c->password, ws->w[2]))
            bad(c, "%s", "the password is too long");
        else
            c->kind = CMD_PASSWORD;
        return;
    }
    if (word_is(w, "MAP")) {
        if (ws->n != 3 || !copy_word(c->arg, sizeof c->arg, ws->w[2]))
            bad(c, "%s", "SET MAP takes one word: PNG, PDF, SVG or NONE");
        else
            c->kind = CMD_MAPFORMAT;
        return;
    }
    if (word_is(w, "ADDRESS")) {
        if (ws->n != 3)
            bad(c, "%s", "SET ADDRESS needs one address");
        else if (!copy_word(c->arg, sizeof c->arg, ws->w[2]))
            bad(c, "%s", "the address is too long");
        else
            c->kind = CMD_ADDRESS;
        return;
    }
    if (word_is(w, "DEADLINE")) {
        char value[CMD_LINE_MAX];
        rest_from(ws, 2, value, sizeof value);
        if (!*value)
            bad(c, "%s", "SET DEADLINE needs a time: 2027-01-09 20:00, +2d");
        else if (snprintf(c->arg, sizeof c->arg, "deadline=%s", value) >=
                 (int)sizeof c->arg)
            bad(c, "%s", "the deadline is too long");
        else
            c->kind = CMD_SETTING;
        return;
    }
    parse_setting(ws, c);
}

/* Commands that take nothing after their word. */
static void no_args(const words *ws, cmd *c, cmd_kind kind, int nwords)
{
    if (ws->n > nwords)
        bad(c, "%s takes nothing more", cmd_name(kind));
    else
        c->kind = kind;
}

/* Commands that take one word (a power) after their word. */
static void one_power(const words *ws, cmd *c, cmd_kind kind)
{
    if (ws->n != 2 || !copy_word(c->who, sizeof c->who, ws->w[1]))
        bad(c, "%s needs one power", cmd_name(kind));
    else
        c->kind = kind;
}

/* REPLACE power address: the master gives a power to a new player. */
static void parse_replace(const words *ws, cmd *c)
{
    if (ws->n != 3 || !copy_word(c->who, sizeof c->who, ws->w[1]) ||
        !copy_word(c->arg, sizeof c->arg, ws->w[2]))
        bad(c, "%s", "REPLACE needs a power and the new player's address");
    else
        c->kind = CMD_REPLACE;
}

static void game_args(const words *ws, cmd *c, cmd_kind kind, int min,
                      int max)
{
    if (ws->n - 1 < min || ws->n - 1 > max) {
        bad(c, ws->n - 1 < min ? "%s needs the game"
                               : "%s: too many words",
            cmd_name(kind));
        return;
    }
    if (ws->n > 1 && !game_word(c, ws->w[1]))
        return;
    if ((ws->n > 2 && !copy_word(c->arg, sizeof c->arg, ws->w[2])) ||
        (ws->n > 3 && !copy_word(c->arg2, sizeof c->arg2, ws->w[3]))) {
        bad(c, "%s", "the phase is too long");
        return;
    }
    c->kind = kind;
}

/* ROLLBACK [PHASE]: the phase ("S1903M") or none, the one before. */
static void parse_rollback(const words *ws, cmd *c)
{
    if (ws->n > 2 || (ws->n == 2 && !copy_word(c->arg, sizeof c->arg,
                                                ws->w[1])))
        bad(c, "%s", "ROLLBACK takes at most a phase (S1903M)");
    else
        c->kind = CMD_ROLLBACK;
}

/* "S1901M", "f1905r", "W1910A": a phase as the judge writes it. */
static bool phase_shaped(const char *w)
{
    return strlen(w) == 6 && strchr("SFWsfw", w[0]) &&
           isdigit((unsigned char)w[1]) && isdigit((unsigned char)w[2]) &&
           isdigit((unsigned char)w[3]) && isdigit((unsigned char)w[4]) &&
           strchr("MRAmra", w[5]);
}

/* MAP [GAME] [PHASE]: a lone phase-shaped word is the phase (the game is
 * then the one signed on to). */
static void parse_map(const words *ws, cmd *c)
{
    if (ws->n > 3) {
        bad(c, "%s", "MAP takes at most the game and a phase: MAP demo "
                     "F1901M");
        return;
    }
    int i = 1;
    if (ws->n > 1 && !(ws->n == 2 && phase_shaped(ws->w[1]))) {
        if (!game_word(c, ws->w[1]))
            return;
        i = 2;
    }
    if (i < ws->n) {
        if (!phase_shaped(ws->w[i]) ||
            !copy_word(c->arg, sizeof c->arg, ws->w[i])) {
            bad(c, "'%.20s' is not a phase like S1901M", ws->w[i]);
            return;
        }
    }
    c->kind = CMD_MAP;
}

static void parse_words(const words *ws, cmd *c)
{
    const char *w = ws->w[0];
    if (word_is(w, "HELP"))
        c->kind = CMD_HELP;
    else if (word_is(w, "LIST"))
        game_args(ws, c, CMD_LIST, 0, 1);
    else if (word_is(w, "HISTORY"))
        game_args(ws, c, CMD_HISTORY, 1, 3);
    else if (word_is(w, "SUMMARY"))
        game_args(ws, c, CMD_SUMMARY, 1, 1);
    else if (word_is(w, "MAP"))
        parse_map(ws, c);
    else if (word_is(w, "JOIN"))
        parse_game_password(ws, c, CMD_JOIN);
    else if (word_is(w, "OBSERVE"))
        parse_game_password(ws, c, CMD_OBSERVE);
    else if (word_is(w, "TAKEOVER"))
        parse_game_password(ws, c, CMD_TAKEOVER);
    else if (word_is(w, "CONFIRM")) {
        if (ws->n != 2 || !copy_word(c->arg, sizeof c->arg, ws->w[1]))
            bad(c, "%s", "CONFIRM takes the code the judge mailed you");
        else
            c->kind = CMD_CONFIRM;
    }
    else if (word_is(w, "CREATE"))
        parse_game_password(ws, c, CMD_CREATE);
    else if (word_is(w, "SIGNON"))
        parse_signon(ws, c);
    else if (word_is(w, "SIGNOFF"))
        c->kind = CMD_SIGNOFF;
    else if (word_is(w, "CLEAR"))
        no_args(ws, c, CMD_CLEAR, 1);
    else if (word_is(w, "STATUS"))
        no_args(ws, c, CMD_STATUS, 1);
    else if (word_is(w, "READY"))
        no_args(ws, c, CMD_READY, 1);
    else if (word_is(w, "NOTREADY") || word_is(w, "UNREADY"))
        no_args(ws, c, CMD_NOT_READY, 1);
    else if (word_is(w, "NOT") && ws->n >= 2 && word_is(ws->w[1], "READY"))
        no_args(ws, c, CMD_NOT_READY, 2);
    else if (word_is(w, "SET"))
        parse_set(ws, c);
    else if (word_is(w, "PRESS"))
        cmd_read_press_line(ws->w + 1, ws->n - 1, false, c);
    else if (word_is(w, "BROADCAST"))
        cmd_read_press_line(ws->w + 1, ws->n - 1, true, c);
    else if (word_is(w, "ENDPRESS") || word_is(w, "ENDBROADCAST"))
        c->kind = CMD_ENDPRESS;
    else if (word_is(w, "RESIGN"))
        no_args(ws, c, CMD_RESIGN, 1);
    else if (word_is(w, "PROCESS"))
        no_args(ws, c, CMD_PROCESS, 1);
    else if (word_is(w, "PREVIEW"))
        no_args(ws, c, CMD_PREVIEW, 1);
    else if (word_is(w, "ROLLBACK"))
        parse_rollback(ws, c);
    else if (word_is(w, "ROLLFORWARD"))
        no_args(ws, c, CMD_ROLLFORWARD, 1);
    else if (word_is(w, "PAUSE"))
        no_args(ws, c, CMD_PAUSE, 1);
    else if (word_is(w, "RESUME"))
        no_args(ws, c, CMD_RESUME, 1);
    else if (word_is(w, "START"))
        no_args(ws, c, CMD_START, 1);
    else if (word_is(w, "BECOME"))
        one_power(ws, c, CMD_BECOME);
    else if (word_is(w, "EJECT"))
        one_power(ws, c, CMD_EJECT);
    else if (word_is(w, "REPLACE"))
        parse_replace(ws, c);
    else if (word_is(w, "TERMINATE")) {
        rest_from(ws, 1, c->arg, sizeof c->arg);
        c->kind = CMD_TERMINATE;
    } else {
        c->kind = CMD_TEXT;
        mask_near_miss(ws, c);
    }
}

void cmd_parse_line(const char *line, cmd *c)
{
    memset(c, 0, sizeof *c);
    c->grey = -1;
    snprintf(c->text, sizeof c->text, "%s", line);
    words *ws = malloc(sizeof *ws);
    if (!ws) {
        bad(c, "%s", "out of memory");
        snprintf(c->echo, sizeof c->echo, "%s", CMD_MASK);
        return;
    }
    split(line, ws);
    rest_from(ws, 0, c->echo, sizeof c->echo); /* as written, trimmed */
    if (ws->n == 0)
        c->kind = CMD_TEXT;
    else
        parse_words(ws, c);
    free(ws);
}

/* ---- the message ------------------------------------------------------------------ */

/* The next line into buf (cut to fit); false at the end of the body. */
static bool read_line(cmd_reader *r, char *buf, size_t len, bool *cut)
{
    if (!r->next || !*r->next)
        return false;
    const char *p = r->next;
    size_t n = strcspn(p, "\n");
    r->next = p + n + (p[n] == '\n');
    size_t keep = n < len - 1 ? n : len - 1;
    /* never cut a UTF-8 sequence in two */
    while (keep < n && keep > 0 &&
           ((unsigned char)p[keep] & 0xC0) == 0x80)
        keep--;
    memcpy(buf, p, keep);
    buf[keep] = '\0';
    *cut = keep < n;
    while (keep && (buf[keep - 1] == '\r' || buf[keep - 1] == ' ' ||
                    buf[keep - 1] == '\t'))
        buf[--keep] = '\0';
    r->line++;
    return true;
}

static bool blank(const char *line)
{
    for (; *line; line += space_len(line))
        if (!is_space(line))
            return false;
    return true;
}

/* Count the lines left unread. */
static void skip_rest(cmd_reader *r)
{
    r->skipped = 0;
    for (const char *p = r->next; p && *p;) {
        size_t n = strcspn(p, "\n");
        if (n)
            r->skipped++;
        p += n + (p[n] == '\n');
    }
    r->next = NULL;
    r->ended = true;
}

/* Does this line end a press body?  Returns the kind, else CMD_TEXT. */
static cmd_kind press_end(const char *line)
{
    char word[16];
    size_t i = 0;
    while (*line && is_space(line))
        line += space_len(line);
    while (line[i] && !is_space(line + i) && i < sizeof word - 1) {
        word[i] = line[i];
        i++;
    }
    word[i] = '\0';
    const char *after = line + i;
    if (!blank(after))
        return CMD_TEXT;
    if (word_is(word, "ENDPRESS") || word_is(word, "ENDBROADCAST"))
        return CMD_ENDPRESS;
    if (word_is(word, "SIGNOFF"))
        return CMD_SIGNOFF;
    return CMD_TEXT;
}

static void read_press_body(cmd_reader *r, cmd *c, dj_buf *body)
{
    char *line = malloc(CMD_LINE_MAX);
    bool cut;
    while (line && r->line < CMD_MAX_LINES &&
           read_line(r, line, CMD_LINE_MAX, &cut)) {
        cmd_kind end = press_end(line);
        if (end == CMD_ENDPRESS) {
            c->press_ended = true;
            break;
        }
        if (end == CMD_SIGNOFF) {
            r->signed_off = true;
            skip_rest(r);
            break;
        }
        if (body->len + strlen(line) + 1 < CMD_PRESS_MAX) {
            dj_buf_append(body, line);
            dj_buf_append(body, "\n");
        } else {
            c->cut = true;
        }
        c->cut |= cut;
        c->press_lines++;
    }
    free(line);
    if (!r->ended && r->line >= CMD_MAX_LINES && r->next && *r->next)
        skip_rest(r);
}

static bool subject_command(const char *subject)
{
    static const char *const allowed[] = {"HELP", "LIST", "HISTORY",
                                          "SUMMARY", "MAP", "JOIN", "OBSERVE",
                                          "CONFIRM",
                                          "CREATE", "SIGNON", NULL};
    char word[16];
    size_t i = 0;
    while (*subject == ' ' || *subject == '\t')
        subject++;
    while (subject[i] && subject[i] != ' ' && subject[i] != '\t' &&
           i < sizeof word - 1) {
        word[i] = subject[i];
        i++;
    }
    word[i] = '\0';
    for (const char *const *a = allowed; *a; a++)
        if (word_is(word, *a))
            return true;
    return false;
}

void cmd_reader_init(cmd_reader *r, const char *subject, const char *body)
{
    memset(r, 0, sizeof *r);
    r->next = body;
    if (subject && subject_command(subject)) {
        r->subject_pending = true;
        snprintf(r->subject, sizeof r->subject, "%.*s",
                 (int)strcspn(subject, "\r\n"), subject);
    }
}

bool cmd_next(cmd_reader *r, cmd *c, dj_buf *press_body)
{
    if (r->subject_pending) {
        r->subject_pending = false;
        cmd_parse_line(r->subject, c);
        c->line = 0;
        if (c->kind == CMD_TEXT)
            return cmd_next(r, c, press_body);
        return true;
    }
    char *line = malloc(CMD_LINE_MAX);
    bool cut = false, got = false;
    while (line && !r->ended) {
        if (r->line >= CMD_MAX_LINES) {
            skip_rest(r);
            break;
        }
        if (!read_line(r, line, CMD_LINE_MAX, &cut))
            break;
        if (!blank(line)) {
            got = true;
            break;
        }
    }
    if (!got) {
        free(line);
        return false;
    }
    cmd_parse_line(line, c);
    free(line);
    c->line = r->line;
    c->cut = cut;
    if (c->opens_press) /* even a bad PRESS line: its body is no orders */
        read_press_body(r, c, press_body);
    if (c->kind == CMD_SIGNOFF) {
        r->signed_off = true;
        skip_rest(r);
    }
    return true;
}

const char *cmd_name(cmd_kind kind)
{
    static const char *const names[CMD_KIND_COUNT] = {
        [CMD_TEXT] = "text",           [CMD_BAD] = "command",
        [CMD_HELP] = "HELP",           [CMD_LIST] = "LIST",
        [CMD_HISTORY] = "HISTORY",     [CMD_SUMMARY] = "SUMMARY",
        [CMD_JOIN] = "JOIN",           [CMD_OBSERVE] = "OBSERVE",
        [CMD_CREATE] = "CREATE",       [CMD_SIGNON] = "SIGNON",
        [CMD_SIGNOFF] = "SIGNOFF",     [CMD_CLEAR] = "CLEAR",
        [CMD_STATUS] = "STATUS",       [CMD_READY] = "READY",
        [CMD_NOT_READY] = "NOT READY", [CMD_WAIT] = "SET WAIT",
        [CMD_NOWAIT] = "SET NOWAIT",   [CMD_PASSWORD] = "SET PASSWORD",
        [CMD_ADDRESS] = "SET ADDRESS", [CMD_ABSENCE] = "SET ABSENCE",
        [CMD_NOABSENCE] = "SET NOABSENCE",
        [CMD_DRAW] = "SET DRAW",       [CMD_NODRAW] = "SET NODRAW",
        [CMD_CONCEDE] = "SET CONCEDE", [CMD_NOCONCEDE] = "SET NOCONCEDE",
        [CMD_PRESS] = "PRESS",         [CMD_ENDPRESS] = "ENDPRESS",
        [CMD_RESIGN] = "RESIGN",       [CMD_PROCESS] = "PROCESS",
        [CMD_PREVIEW] = "PREVIEW",     [CMD_ROLLBACK] = "ROLLBACK",
        [CMD_ROLLFORWARD] = "ROLLFORWARD",
        [CMD_PAUSE] = "PAUSE",         [CMD_RESUME] = "RESUME",
        [CMD_START] = "START",         [CMD_BECOME] = "BECOME",
        [CMD_EJECT] = "EJECT",         [CMD_REPLACE] = "REPLACE",         [CMD_TERMINATE] = "TERMINATE",
        [CMD_SETTING] = "SET",         [CMD_MAP] = "MAP",
        [CMD_TAKEOVER] = "TAKEOVER",   [CMD_CONFIRM] = "CONFIRM",
        [CMD_MAPFORMAT] = "SET MAP",
    };
    return kind >= 0 && kind < CMD_KIND_COUNT && names[kind] ? names[kind]
                                                            : "command";
}
