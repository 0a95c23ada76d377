/* SPDX-License-Identifier: MIT */
/*
 * test_identity.c — who sent a mail (issue 32), module by module on a real
 * SQLite file: the password checks remembered by a running judge
 * (game/signon_cache.c: a right password pays yescrypt once, a wrong one
 * always, a changed password is forgotten), the per-class counting of
 * failed sign-ons (the web's sign-in is never locked by mail's), the
 * reply tokens (game/reply_token.c: derived, only
 * hashed in the database, new with a new password, address, power or SET
 * TOKEN NEW) and the reply addresses (mail/reply_address.c).
 */
#define _DEFAULT_SOURCE

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "game/config.h"
#include "game/forming.h"
#include "game/game.h"
#include "game/signon.h"
#include "game/websession.h"
#include "mail/reply_address.h"
#include "store/signons.h"
#include "testlib.h"

static const char *srcdir = ".";
static char dir[256];
static dj_judge *J;
static const int64_t NOW = 1800000000;
static const char *const POWERS[] = {"Austria", "England", "France", "Germany",
                                     "Italy",   "Russia",  "Turkey"};

static dj_judge *open_judge(void)
{
    dj_config cfg;
    dj_config_defaults(&cfg);
    snprintf(cfg.database, sizeof cfg.database, "%s/judge.db", dir);
    char maps[512], err[512];
    snprintf(maps, sizeof maps, "%s/maps", srcdir);
    dj_judge *j = dj_judge_open(&cfg, maps, err, sizeof err);
    if (!j)
        fprintf(stderr, "%s\n", err);
    return j;
}

static void setup_game(const char *name)
{
    dj_buf out;
    dj_buf_init(&out);
    dj_judge_set_now(J, NOW);
    CHECK(dj_game_create(J, name, NULL, NULL, NULL, 0, &out) == 0);
    char email[64];
    snprintf(email, sizeof email, "gm@%s.example", name);
    dj_join_request gm = {email, NULL, NULL, "master-secret", "master", NULL};
    CHECK(dj_game_join(J, name, &gm, &out) == 0);
    for (int p = 0; p < 7; p++) {
        char pw[64];
        snprintf(email, sizeof email, "p%d@%s.example", p, name);
        snprintf(pw, sizeof pw, "secret-%d", p);
        dj_join_request req = {email, NULL, POWERS[p], pw, NULL, NULL};
        CHECK(dj_game_join(J, name, &req, &out) == 0);
    }
    dj_buf_free(&out);
}

static dj_signon_cache_stats stats(void)
{
    dj_signon_cache_stats s;
    dj_signon_cache_stats_get(J, &s);
    return s;
}

static int signon(const char *who, const char *pw, const char *from)
{
    dj_signon id;
    int rc = dj_game_signon(J, "demo", who, pw, from, &id);
    dj_signon_cache_end_mail(J);
    return rc;
}

static void test_remembered(void)
{
    dj_signon_cache_stats a = stats();
    CHECK(signon("F", "secret-2", "p2@demo.example") == 0);
    dj_signon_cache_stats b = stats();
    CHECK(b.full_checks == a.full_checks + 1);
    /* the next mail: remembered, no yescrypt */
    CHECK(signon("F", "secret-2", "p2@demo.example") == 0);
    dj_signon_cache_stats c = stats();
    CHECK(c.full_checks == b.full_checks);
    CHECK(c.remembered_hits == b.remembered_hits + 1);
    /* a wrong password always pays the full check */
    CHECK(signon("F", "secret-x", "p2@demo.example") == DJ_SIGNON_REFUSED);
    CHECK(signon("F", "secret-y", "p2@demo.example") == DJ_SIGNON_REFUSED);
    dj_signon_cache_stats d = stats();
    CHECK(d.full_checks == c.full_checks + 2);
    /* forgotten on request: the next right one is a full check again */
    dj_signon id;
    CHECK(dj_game_signon(J, "demo", "F", "secret-2", "p2@demo.example", &id) ==
          0);
    dj_signon_cache_end_mail(J);
    dj_signon_cache_forget(J, id.participant_id);
    CHECK(signon("F", "secret-2", "p2@demo.example") == 0);
    CHECK(stats().full_checks == d.full_checks + 1);
}

static void test_precheck(void)
{
    /* checked before the transaction: the sign-on inside pays nothing */
    dj_signon id;
    CHECK(dj_game_signon_precheck(J, "demo", "G", "secret-3", "p3@demo.example",
                                  &id) == 0);
    CHECK_STR(id.power_name, "Germany");
    dj_signon_cache_stats a = stats();
    CHECK(dj_game_signon(J, "demo", "G", "secret-3", "p3@demo.example", &id) ==
          0);
    CHECK(stats().full_checks == a.full_checks);
    dj_signon_cache_end_mail(J);
    /* a wrong one: one full check for the mail, not two, and it is
     * recorded only inside (the precheck writes nothing) */
    int before = 0, after = 0;
    CHECK(dj_store_signon_target_failures(dj_judge_store(J), "demo", "Germany",
                                          NULL, 0, &before) == 0);
    a = stats();
    CHECK(dj_game_signon_precheck(J, "demo", "G", "nope-nope",
                                  "p3@demo.example", &id) == DJ_SIGNON_REFUSED);
    CHECK(dj_store_signon_target_failures(dj_judge_store(J), "demo", "Germany",
                                          NULL, 0, &after) == 0);
    CHECK(after == before);
    CHECK(dj_game_signon(J, "demo", "G", "nope-nope", "p3@demo.example", &id) ==
          DJ_SIGNON_REFUSED);
    CHECK(stats().full_checks == a.full_checks + 1);
    dj_signon_cache_end_mail(J);
    /* the next mail with the same wrong password pays again */
    CHECK(signon("G", "nope-nope", "p3@demo.example") == DJ_SIGNON_REFUSED);
    CHECK(stats().full_checks == a.full_checks + 2);
    /* no such game: the time of a check all the same, once per mail */
    a = stats();
    CHECK(dj_game_signon_precheck(J, "nosuch", "F", "whatever1", "x@y", &id) ==
          DJ_SIGNON_REFUSED);
    CHECK(dj_game_signon(J, "nosuch", "F", "whatever1", "x@y", &id) ==
          DJ_SIGNON_REFUSED);
    dj_signon_cache_end_mail(J);
    CHECK(stats().full_checks == a.full_checks + 1);
}

static void test_password_change(void)
{
    dj_signon id;
    CHECK(dj_game_signon(J, "demo", "I", "secret-4", "p4@demo.example", &id) ==
          0);
    dj_signon_cache_end_mail(J);
    dj_buf out;
    dj_buf_init(&out);
    CHECK(dj_game_set_password(J, &id, "a-new-one-4", &out) == 0);
    dj_buf_free(&out);
    CHECK(signon("I", "secret-4", "p4@demo.example") == DJ_SIGNON_REFUSED);
    CHECK(signon("I", "a-new-one-4", "p4@demo.example") == 0);
}

/* Failures of one class never count against another's sign-ons. */
static void test_classes(void)
{
    dj_judge_set_sender_class(J, DJ_SENDER_FORGED);
    for (int i = 0; i < 12; i++) {
        char pw[32];
        snprintf(pw, sizeof pw, "guess-%d", i);
        dj_judge_set_now(J, NOW + 100 + i);
        signon("R", pw, "p5@demo.example");
    }
    /* forged mail from the own address is slowed down now ... */
    dj_signon id;
    CHECK(dj_game_signon(J, "demo", "R", "secret-5", "p5@demo.example", &id) ==
          DJ_SIGNON_REFUSED);
    CHECK(strstr(dj_judge_error(J), "slowed down") != NULL);
    dj_signon_cache_end_mail(J);
    /* ... but unknown and authenticated mail, and the web, are not */
    dj_judge_set_sender_class(J, DJ_SENDER_UNKNOWN);
    CHECK(signon("R", "secret-5", "p5@demo.example") == 0);
    dj_judge_set_sender_class(J, DJ_SENDER_AUTHENTICATED);
    CHECK(signon("R", "secret-5", "p5@demo.example") == 0);
    /* from another address too: the forgers' target count is theirs */
    dj_judge_set_sender_class(J, DJ_SENDER_UNKNOWN);
    CHECK(signon("R", "secret-5", "elsewhere@demo.example") == 0);
    int n = 0;
    CHECK(dj_store_signon_target_failures(dj_judge_store(J), "demo", "russia",
                                          "forged", 0, &n) == 0 &&
          n >= 5);
    CHECK(dj_store_signon_target_failures(dj_judge_store(J), "demo", "russia",
                                          "unknown", 0, &n) == 0 &&
          n == 0);
    /* the web's sign-in is not locked by failures of mail sign-ons, from
     * any address, of any class */
    dj_judge_set_sender_class(J, DJ_SENDER_UNKNOWN);
    for (int i = 0; i < 8; i++)
        signon("R", "wrong-unknown", "someone@else.example");
    dj_signon id2;
    CHECK(dj_game_signon(J, "demo", "R", "secret-5", "other@else.example",
                         &id2) == DJ_SIGNON_REFUSED);
    dj_signon_cache_end_mail(J);
    char token[DJ_WEB_TOKEN_LEN + 1], csrf[DJ_WEB_TOKEN_LEN + 1];
    char device[DJ_WEB_TOKEN_LEN + 1];
    CHECK(dj_game_web_signin(J, "demo", "R", "secret-5", "", "web 192.0.2.7",
                             NULL, 3600, token, csrf, device, &id2) == 0);
    CHECK(dj_judge_sender_class(J) == DJ_SENDER_UNKNOWN);
    dj_signon_cache_end_mail(J);
    /* authenticated mail from the own address is never slowed down */
    dj_judge_set_sender_class(J, DJ_SENDER_AUTHENTICATED);
    for (int i = 0; i < 8; i++)
        signon("R", "wrong-auth", "p5@demo.example");
    CHECK(signon("R", "secret-5", "p5@demo.example") == 0);
    dj_judge_set_sender_class(J, DJ_SENDER_UNKNOWN);
    dj_judge_set_now(J, NOW);
}

/* A failure recorded by a process whose clock stood later (a clock set
 * back; test clocks that start anew with each process) is no back-off by
 * itself: below the limit the right password works at once. */
static void test_clock_behind(void)
{
    dj_judge_set_sender_class(J, DJ_SENDER_UNKNOWN);
    dj_judge_set_now(J, NOW + 5000);
    CHECK(signon("T", "a-typo-6", "p6@demo.example") == DJ_SIGNON_REFUSED);
    dj_judge_set_now(J, NOW + 4999);
    CHECK(signon("T", "secret-6", "p6@demo.example") == 0);
    dj_judge_set_now(J, NOW);
}

static void test_tokens(void)
{
    char key[300], err[256];
    snprintf(key, sizeof key, "%s/judge.db.reply-key", dir);
    char tok[DJ_REPLY_TOKEN_LEN + 1], tok2[DJ_REPLY_TOKEN_LEN + 1];
    CHECK(dj_game_reply_token(J, 1, "p1@demo.example", tok) == 1); /* no key */
    CHECK(dj_judge_load_reply_key(J, key, err, sizeof err) == 0);
    struct stat sb;
    CHECK(stat(key, &sb) == 0 && (sb.st_mode & 0777) == 0600 &&
          sb.st_size == 32);
    dj_game_rec g;
    CHECK(dj_store_game_get(dj_judge_store(J), "demo", &g) == 0);
    CHECK(dj_game_reply_token(J, g.id, "P1@demo.example", tok) == 0);
    CHECK(strlen(tok) == DJ_REPLY_TOKEN_LEN);
    CHECK(strspn(tok, "abcdefghijklmnopqrstuvwxyz234567") ==
          DJ_REPLY_TOKEN_LEN);
    CHECK(dj_game_reply_token(J, g.id, "p1@demo.example", tok2) == 0);
    CHECK_STR(tok2, tok); /* the same until something changes */
    CHECK(dj_game_reply_token(J, g.id, "stranger@demo.example", tok2) == 1);
    dj_signon id;
    CHECK(dj_game_token_signon(J, tok, &id) == 0);
    CHECK_STR(id.power_name, "England");
    CHECK_STR(id.role, "player");
    CHECK_STR(id.game, "demo");
    /* a wrong token, one letter off */
    char wrong[DJ_REPLY_TOKEN_LEN + 1];
    snprintf(wrong, sizeof wrong, "%s", tok);
    wrong[0] = wrong[0] == 'a' ? 'b' : 'a';
    CHECK(dj_game_token_signon(J, wrong, &id) == DJ_SIGNON_REFUSED);
    CHECK(dj_game_token_signon(J, "short", &id) == DJ_SIGNON_REFUSED);
    /* a new password: a new token, the old one dead */
    CHECK(dj_game_token_signon(J, tok, &id) == 0);
    dj_buf out;
    dj_buf_init(&out);
    CHECK(dj_game_set_password(J, &id, "england-new-1", &out) == 0);
    CHECK(dj_game_token_signon(J, tok, &id) == DJ_SIGNON_REFUSED);
    CHECK(dj_game_reply_token(J, g.id, "p1@demo.example", tok2) == 0);
    CHECK(strcmp(tok2, tok) != 0);
    CHECK(dj_game_token_signon(J, tok2, &id) == 0);
    /* SET TOKEN NEW */
    CHECK(dj_game_token_new(J, &id, &out) == 0);
    CHECK(dj_game_token_signon(J, tok2, &id) == DJ_SIGNON_REFUSED);
    char tok3[DJ_REPLY_TOKEN_LEN + 1];
    CHECK(dj_game_reply_token(J, g.id, "p1@demo.example", tok3) == 0);
    CHECK(strcmp(tok3, tok2) != 0 && strcmp(tok3, tok) != 0);
    /* a player's new address is one more: the token stays, and is the
     * token of the mail to either address */
    CHECK(dj_game_token_signon(J, tok3, &id) == 0);
    CHECK(dj_game_set_address(J, "demo", id.participant_id,
                              "england@elsewhere.example", &out) == 0);
    CHECK(dj_game_token_signon(J, tok3, &id) == 0);
    char tok4[DJ_REPLY_TOKEN_LEN + 1];
    CHECK(dj_game_reply_token(J, g.id, "England@Elsewhere.example", tok4) ==
          0);
    CHECK_STR(tok4, tok3);
    /* an address removed: new again (the old mail in that box is dead) */
    CHECK(dj_game_addresses(J, "demo", "England", "p1@demo.example", &out) ==
          0);
    CHECK(dj_game_token_signon(J, tok3, &id) == DJ_SIGNON_REFUSED);
    CHECK(dj_game_reply_token(J, g.id, "p1@demo.example", tok4) == 1);
    CHECK(dj_game_reply_token(J, g.id, "england@elsewhere.example", tok4) ==
          0);
    CHECK(strcmp(tok4, tok3) != 0);
    CHECK(dj_game_token_signon(J, tok4, &id) == 0);
    dj_buf_free(&out);
    /* the key read again (a restart): the same tokens */
    char a[DJ_REPLY_TOKEN_LEN + 1], b[DJ_REPLY_TOKEN_LEN + 1];
    CHECK(dj_game_reply_token(J, g.id, "p0@demo.example", a) == 0);
    CHECK(dj_judge_load_reply_key(J, key, err, sizeof err) == 0);
    CHECK(dj_game_reply_token(J, g.id, "p0@demo.example", b) == 0);
    CHECK_STR(a, b);
    /* the master and another game's player have their own */
    setup_game("other");
    dj_game_rec o;
    CHECK(dj_store_game_get(dj_judge_store(J), "other", &o) == 0);
    CHECK(dj_game_reply_token(J, o.id, "p0@other.example", b) == 0);
    CHECK(strcmp(a, b) != 0);
    CHECK(dj_game_token_signon(J, b, &id) == 0);
    CHECK_STR(id.game, "other");
    CHECK(dj_game_reply_token(J, g.id, "gm@demo.example", b) == 0);
    CHECK(dj_game_token_signon(J, b, &id) == 0);
    CHECK_STR(id.role, "master");
}

static void test_addresses(void)
{
    char out[256];
    CHECK(dj_reply_address_make("judge@example.org", "+",
                                "abcdefghijklmnopqrstuvwx", 0, out,
                                sizeof out) == 0);
    CHECK_STR(out, "judge+abcdefghijklmnopqrstuvwx@example.org");
    CHECK(dj_reply_address_make("judge@example.org", "-",
                                "abcdefghijklmnopqrstuvwx", 42, out,
                                sizeof out) == 0);
    CHECK_STR(out, "judge-abcdefghijklmnopqrstuvwx-p42@example.org");
    CHECK(dj_reply_address_make("nodomain", "+", "x", 0, out, sizeof out) < 0);

    const char *mail =
        "Received: from x\r\n"
        "From: Ann <ann@a.example>\r\n"
        "To: \"The Judge\" <JUDGE+abcdefghijklmnopqrstuvwx@Example.ORG>,\r\n"
        "  other@b.example\r\n"
        "Cc: judge+zzzzzzzzzzzzzzzzzzzzzzzz-p7@example.org\r\n"
        "Subject: judge+yyyyyyyyyyyyyyyyyyyyyyyy@example.org\r\n"
        "\r\n"
        "To: judge+wwwwwwwwwwwwwwwwwwwwwwww@example.org\r\n";
    dj_reply_tag tags[DJ_REPLY_TAGS_MAX];
    bool bad = false;
    size_t n =
        dj_reply_address_find(mail, strlen(mail), NULL, "judge@example.org",
                              "+", tags, DJ_REPLY_TAGS_MAX, &bad);
    CHECK(n == 2);
    CHECK(!bad);
    if (n == 2) {
        CHECK_STR(tags[0].token, "abcdefghijklmnopqrstuvwx");
        CHECK(tags[0].press_id == 0);
        CHECK_STR(tags[1].token, "zzzzzzzzzzzzzzzzzzzzzzzz");
        CHECK(tags[1].press_id == 7);
    }
    /* the envelope recipient, when given, is the only one read */
    n = dj_reply_address_find(
        mail, strlen(mail), "judge+qqqqqqqqqqqqqqqqqqqqqqqq@example.org",
        "judge@example.org", "+", tags, DJ_REPLY_TAGS_MAX, &bad);
    CHECK(n == 1 && strcmp(tags[0].token, "qqqqqqqqqqqqqqqqqqqqqqqq") == 0);
    n = dj_reply_address_find(mail, strlen(mail), "judge@example.org",
                              "judge@example.org", "+", tags, DJ_REPLY_TAGS_MAX,
                              &bad);
    CHECK(n == 0);
    /* other domains, other local parts, a tag of the wrong shape */
    const char *m2 =
        "To: judge+abcdefghijklmnopqrstuvwx@example.org.evil\n"
        "Cc: xjudge+abcdefghijklmnopqrstuvwx@example.org\n"
        "Delivered-To: judge+orders@example.org\n"
        "X-Original-To: judge+bcdefghijklmnopqrstuvwxy@example.org\n"
        "\n";
    n = dj_reply_address_find(m2, strlen(m2), NULL, "judge@example.org", "+",
                              tags, DJ_REPLY_TAGS_MAX, &bad);
    CHECK(n == 1 && strcmp(tags[0].token, "bcdefghijklmnopqrstuvwxy") == 0);
    CHECK(bad);
    /* nothing read past a header without its blank line, or an empty one */
    n = dj_reply_address_find("", 0, NULL, "judge@example.org", "+", tags,
                              DJ_REPLY_TAGS_MAX, &bad);
    CHECK(n == 0);
}

int main(int argc, char **argv)
{
    srcdir = test_srcdir(argc, argv);
    snprintf(dir, sizeof dir, "/tmp/dj-identity-XXXXXX");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 2;
    }
    J = open_judge();
    CHECK(J != NULL);
    if (J) {
        setup_game("demo");
        test_remembered();
        test_precheck();
        test_password_change();
        test_classes();
        test_clock_behind();
        test_tokens();
        dj_judge_close(J);
    }
    test_addresses();
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    return test_summary();
}
