/* SPDX-License-Identifier: MIT */
/*
 * test_authres.c — the Authentication-Results reader (src/mail/authres.c)
 * on header blocks shaped like those real mail systems write: OpenDKIM and
 * OpenDMARC behind Postfix, rspamd, Gmail, Fastmail, Outlook.com, folded
 * lines, comments, quoted strings, and fields a sender forged below the
 * trusted host's own.
 */
#include "mail/authres.h"

#include "testlib.h"

static const char *const MX[] = {"mx.example.org"};

static dj_auth_verdict eval(const char *h, const char *from,
                            const char *const *trusted, size_t n)
{
    dj_auth_verdict v;
    memset(&v, 0x55, sizeof v); /* filled whatever the input */
    dj_authres_evaluate(h, strlen(h), from, trusted, n, &v);
    return v;
}

#define EXPECT(h, from, cls_, verdict_)                                      \
    do {                                                                     \
        dj_auth_verdict v_ = eval((h), (from), MX, 1);                       \
        CHECK(v_.cls == (cls_));                                             \
        CHECK_STR(v_.verdict, (verdict_));                                   \
    } while (0)

/* Postfix + OpenDKIM + OpenDMARC, as delivered by Postfix's pipe to the
 * judge: the milters' fields just below Postfix's own Received: field. */
static const char POSTFIX_PASS[] =
    "Return-Path: <alice@players.test>\n"
    "Delivered-To: judge@example.org\n"
    "Received: from localhost (localhost [127.0.0.1])\n"
    "\tby mx.example.org (Postfix) with ESMTP id 4Lq2x01bZ9z9s\n"
    "\tfor <judge@example.org>; Tue,  1 Dec 2026 22:00:00 +0000 (UTC)\n"
    "Authentication-Results: mx.example.org; dmarc=pass (p=reject dis=none) "
    "header.from=players.test\n"
    "Authentication-Results: mx.example.org;\n"
    "\tdkim=pass (2048-bit key; unprotected) header.d=players.test "
    "header.i=@players.test header.a=rsa-sha256 header.s=sel1 "
    "header.b=AbCdEfGh;\n"
    "\tdkim-atps=neutral\n"
    "DKIM-Signature: v=1; a=rsa-sha256; c=relaxed/relaxed; d=players.test;\n"
    "\ts=sel1; t=1; bh=x=; h=From:To:Subject; b=y=\n"
    "From: Alice <alice@players.test>\n"
    "To: judge@example.org\n"
    "Subject: orders\n"
    "\n"
    "SIGNON Fgame1 secret\n";

static void test_postfix(void)
{
    EXPECT(POSTFIX_PASS, "players.test", DJ_AUTH_AUTHENTICATED,
           "dmarc=pass header.from=players.test");
    /* the From: domain in another case */
    EXPECT(POSTFIX_PASS, "Players.TEST", DJ_AUTH_AUTHENTICATED,
           "dmarc=pass header.from=players.test");
    /* a pass for another domain is not a pass for this one */
    EXPECT(POSTFIX_PASS, "other.test", DJ_AUTH_UNKNOWN,
           "dmarc=pass header.from=players.test");
    /* CRLF line ends (IMAP) read the same */
    char crlf[sizeof POSTFIX_PASS * 2];
    size_t k = 0;
    for (const char *c = POSTFIX_PASS; *c; c++) {
        if (*c == '\n')
            crlf[k++] = '\r';
        crlf[k++] = *c;
    }
    crlf[k] = '\0';
    EXPECT(crlf, "players.test", DJ_AUTH_AUTHENTICATED,
           "dmarc=pass header.from=players.test");

    /* not configured: always unknown */
    dj_auth_verdict v = eval(POSTFIX_PASS, "players.test", MX, 0);
    CHECK(v.cls == DJ_AUTH_UNKNOWN);
    CHECK_STR(v.verdict, "authentication not configured");
    /* another host's id is not trusted */
    static const char *const OTHER[] = {"mx.other.org"};
    v = eval(POSTFIX_PASS, "players.test", OTHER, 1);
    CHECK(v.cls == DJ_AUTH_UNKNOWN);
    CHECK_STR(v.verdict, "no trusted Authentication-Results");
    /* trusted ids compare without case; the second of two trusted */
    static const char *const TWO[] = {"imap.provider.test", "MX.Example.ORG"};
    v = eval(POSTFIX_PASS, "players.test", TWO, 2);
    CHECK(v.cls == DJ_AUTH_AUTHENTICATED);
    /* no From: domain */
    v = eval(POSTFIX_PASS, "", MX, 1);
    CHECK(v.cls == DJ_AUTH_UNKNOWN);
    CHECK_STR(v.verdict, "no From: domain");
    v = eval(POSTFIX_PASS, NULL, MX, 1);
    CHECK(v.cls == DJ_AUTH_UNKNOWN);
}

static void test_forged(void)
{
    /* unsigned mail From: a p=reject domain */
    EXPECT("Received: from attacker.test (attacker.test [192.0.2.9])\n"
           "\tby mx.example.org (Postfix) with ESMTP id 4Lq2x;\n"
           "\tTue,  1 Dec 2026 22:00:00 +0000 (UTC)\n"
           "Authentication-Results: mx.example.org; dmarc=fail (p=reject "
           "dis=reject) header.from=players.test\n"
           "Authentication-Results: mx.example.org; dkim=none; "
           "dkim-atps=neutral\n"
           "From: alice@players.test\n\nbody\n",
           "players.test", DJ_AUTH_FORGED,
           "dmarc=fail header.from=players.test");

    /* a bad signature: dkim=fail, dmarc=fail */
    EXPECT("Authentication-Results: mx.example.org;\n"
           "\tdkim=fail reason=\"signature verification failed\" (2048-bit "
           "key; unprotected) header.d=players.test header.i=@players.test "
           "header.b=\"AbC+/=\"\n"
           "Authentication-Results: mx.example.org; dmarc=fail header.from="
           "players.test\n\n",
           "players.test", DJ_AUTH_FORGED,
           "dmarc=fail header.from=players.test");

    /* a forged pass next to the real fail: the fail wins */
    EXPECT("Received: from attacker.test by mx.example.org (Postfix) id 1;"
           " date\n"
           "Authentication-Results: mx.example.org; dmarc=fail "
           "header.from=players.test\n"
           "Authentication-Results: mx.example.org; dmarc=pass "
           "header.from=players.test\n"
           "From: alice@players.test\n\n",
           "players.test", DJ_AUTH_FORGED,
           "dmarc=fail header.from=players.test");

    /* the sender's own pass, below the trusted host's receipt: the real
     * fields are above, the forged one is below the Received: field that
     * ends the trusted group */
    EXPECT("Authentication-Results: mx.example.org; dmarc=none "
           "header.from=players.test\n"
           "Received: from attacker.test by mx.example.org (Postfix) id 1;"
           " date\n"
           "Authentication-Results: mx.example.org; dmarc=pass "
           "header.from=players.test\n"
           "From: alice@players.test\n\n",
           "players.test", DJ_AUTH_UNKNOWN,
           "no DMARC pass or aligned DKIM pass");

    /* the trusted host added nothing (a milter was down); the sender's
     * MTA's Received: field is below the trusted host's: a pass written
     * below it is not read */
    EXPECT("Received: from relay.attacker.test by mx.example.org (Postfix);"
           " date\n"
           "Received: from [10.0.0.1] by relay.attacker.test (Postfix);"
           " date\n"
           "Authentication-Results: mx.example.org; dmarc=pass "
           "header.from=players.test\n"
           "From: alice@players.test\n\n",
           "players.test", DJ_AUTH_UNKNOWN,
           "no trusted Authentication-Results");

    /* a pass in the body is not a header */
    EXPECT("Received: from x by mx.example.org; date\n"
           "From: alice@players.test\n\n"
           "Authentication-Results: mx.example.org; dmarc=pass "
           "header.from=players.test\n",
           "players.test", DJ_AUTH_UNKNOWN,
           "no trusted Authentication-Results");

    /* a look-alike id: a prefix, a suffix, a subdomain */
    EXPECT("Authentication-Results: mx.example.org.attacker.test; dmarc=pass "
           "header.from=players.test\n\n",
           "players.test", DJ_AUTH_UNKNOWN,
           "no trusted Authentication-Results");
    EXPECT("Authentication-Results: x.mx.example.org; dmarc=pass "
           "header.from=players.test\n\n",
           "players.test", DJ_AUTH_UNKNOWN,
           "no trusted Authentication-Results");
    EXPECT("Authentication-Results: mx.example.or; dmarc=pass "
           "header.from=players.test\n\n",
           "players.test", DJ_AUTH_UNKNOWN,
           "no trusted Authentication-Results");
    /* another field's name */
    EXPECT("X-Authentication-Results: mx.example.org; dmarc=pass "
           "header.from=players.test\n"
           "ARC-Authentication-Results: i=1; mx.example.org; dmarc=pass "
           "header.from=players.test\n\n",
           "players.test", DJ_AUTH_UNKNOWN,
           "no trusted Authentication-Results");
}

static void test_rspamd(void)
{
    EXPECT("Received: from mail.players.test (mail.players.test "
           "[198.51.100.7])\n"
           "\tby mx.example.org (Postfix) with ESMTPS id 4M0;\n"
           "\tTue, 1 Dec 2026 22:00:00 +0000\n"
           "Authentication-Results: mx.example.org;\n"
           "\tdkim=pass header.d=players.test header.s=dkim "
           "header.b=Zm9vYmFy;\n"
           "\tdmarc=pass (policy=reject) header.from=players.test;\n"
           "\tspf=pass (mx.example.org: domain of alice@players.test "
           "designates 198.51.100.7 as permitted sender) "
           "smtp.mailfrom=alice@players.test\n"
           "X-Spamd-Result: default: False [-1.00 / 15.00]\n"
           "From: alice@players.test\n\n",
           "players.test", DJ_AUTH_AUTHENTICATED,
           "dmarc=pass header.from=players.test");
    /* rspamd's reject */
    EXPECT("Authentication-Results: mx.example.org;\n"
           "\tdkim=none;\n"
           "\tdmarc=fail reason=\"No valid SPF, No valid DKIM\" "
           "header.from=players.test (policy=reject);\n"
           "\tspf=fail (mx.example.org: domain of alice@players.test does "
           "not designate 192.0.2.9 as permitted sender) "
           "smtp.mailfrom=alice@players.test\n\n",
           "players.test", DJ_AUTH_FORGED,
           "dmarc=fail header.from=players.test");
}

static void test_dkim_only(void)
{
    static const char *const G[] = {"mx.google.com"};
    /* no DMARC result at all: an aligned DKIM pass authenticates */
    EXPECT("Authentication-Results: mx.example.org; dkim=pass "
           "header.d=players.test header.s=s\n\n",
           "players.test", DJ_AUTH_AUTHENTICATED,
           "dkim=pass header.d=players.test");
    /* relaxed: a subdomain either way */
    EXPECT("Authentication-Results: mx.example.org; dkim=pass "
           "header.d=mail.players.test\n\n",
           "players.test", DJ_AUTH_AUTHENTICATED,
           "dkim=pass header.d=mail.players.test");
    EXPECT("Authentication-Results: mx.example.org; dkim=pass "
           "header.d=players.test\n\n",
           "eu.players.test", DJ_AUTH_AUTHENTICATED,
           "dkim=pass header.d=players.test");
    /* header.i's domain when there is no header.d */
    EXPECT("Authentication-Results: mx.example.org; dkim=pass "
           "header.i=alice@Players.Test\n\n",
           "players.test", DJ_AUTH_AUTHENTICATED,
           "dkim=pass header.d=players.test");
    /* dmarc=none (no record published) counts as no DMARC result */
    EXPECT("Authentication-Results: mx.example.org; dmarc=none (p=none "
           "dis=none) header.from=players.test\n"
           "Authentication-Results: mx.example.org; dkim=pass (1024-bit key)"
           " header.d=players.test\n\n",
           "players.test", DJ_AUTH_AUTHENTICATED,
           "dkim=pass header.d=players.test");
    /* not aligned: another domain's signature (a mailing list's, an ESP's) */
    EXPECT("Authentication-Results: mx.example.org; dkim=pass "
           "header.d=esp.test\n\n",
           "players.test", DJ_AUTH_UNKNOWN,
           "no DMARC pass or aligned DKIM pass");
    /* "test" alone is no domain to align with */
    EXPECT("Authentication-Results: mx.example.org; dkim=pass "
           "header.d=test\n\n",
           "players.test", DJ_AUTH_UNKNOWN,
           "no DMARC pass or aligned DKIM pass");
    /* a suffix that is not a subdomain */
    EXPECT("Authentication-Results: mx.example.org; dkim=pass "
           "header.d=evilplayers.test\n\n",
           "players.test", DJ_AUTH_UNKNOWN,
           "no DMARC pass or aligned DKIM pass");
    /* a DMARC temperror: no fallback to DKIM */
    EXPECT("Authentication-Results: mx.example.org; dmarc=temperror "
           "header.from=players.test; dkim=pass header.d=players.test\n\n",
           "players.test", DJ_AUTH_UNKNOWN,
           "dmarc=temperror header.from=players.test");
    /* dkim other than pass */
    EXPECT("Authentication-Results: mx.example.org; dkim=neutral (bad "
           "format) header.d=players.test; dkim=policy header.d="
           "players.test\n\n",
           "players.test", DJ_AUTH_UNKNOWN,
           "no DMARC pass or aligned DKIM pass");
    /* Gmail, as read over IMAP */
    dj_auth_verdict v = eval(
        "Delivered-To: judge@gmail.test\r\n"
        "Received: by 2002:a05:6a10:a0d1:b0:3f8:1a2b:3c4d with SMTP id "
        "w17csp123;\r\n"
        "        Tue, 1 Dec 2026 14:00:00 -0800 (PST)\r\n"
        "X-Received: by 2002:a17:90a:1234:b0:2b0:aaaa:bbbb with SMTP id "
        "z1mr1;\r\n        Tue, 1 Dec 2026 14:00:00 -0800 (PST)\r\n"
        "ARC-Seal: i=1; a=rsa-sha256; t=1; cv=none;\r\n"
        "        d=google.com; s=arc-20160816; b=abc\r\n"
        "ARC-Authentication-Results: i=1; mx.google.com;\r\n"
        "       dkim=pass header.i=@players.test header.s=s1;\r\n"
        "       dmarc=pass (p=REJECT sp=REJECT dis=NONE) "
        "header.from=players.test\r\n"
        "Return-Path: <alice@players.test>\r\n"
        "Received: from out.players.test (out.players.test. "
        "[198.51.100.7])\r\n"
        "        by mx.google.com with ESMTPS id s1si123\r\n"
        "        for <judge@gmail.test>\r\n"
        "        (version=TLS1_3 cipher=TLS_AES_256_GCM_SHA384 bits=256/256);"
        "\r\n        Tue, 01 Dec 2026 14:00:00 -0800 (PST)\r\n"
        "Received-SPF: pass (google.com: domain of alice@players.test "
        "designates 198.51.100.7 as permitted sender) "
        "client-ip=198.51.100.7;\r\n"
        "Authentication-Results: mx.google.com;\r\n"
        "       dkim=pass header.i=@players.test header.s=s1 "
        "header.b=AbCd+/E=;\r\n"
        "       spf=pass (google.com: domain of alice@players.test "
        "designates 198.51.100.7 as permitted sender) "
        "smtp.mailfrom=alice@players.test;\r\n"
        "       dmarc=pass (p=REJECT sp=REJECT dis=NONE) "
        "header.from=players.test\r\n"
        "DKIM-Signature: v=1; a=rsa-sha256; d=players.test; s=s1; b=x\r\n"
        "Received: from [10.0.0.5] by out.players.test (Postfix); date\r\n"
        "Authentication-Results: mx.google.com; dmarc=fail "
        "header.from=players.test\r\n"
        "From: Alice <alice@players.test>\r\n\r\n",
        "players.test", G, 1);
    CHECK(v.cls == DJ_AUTH_AUTHENTICATED);
    CHECK_STR(v.verdict, "dmarc=pass header.from=players.test");
}

static void test_providers(void)
{
    /* Fastmail: many results, bare x-bits=2048, policy.* properties */
    static const char *const FM[] = {"mx6.messagingengine.com"};
    dj_auth_verdict v = eval(
        "Authentication-Results: mx6.messagingengine.com;\n"
        "    dkim=pass (2048-bit rsa key sha256) header.d=players.test\n"
        "      header.i=@players.test header.b=ab/cd header.a=rsa-sha256\n"
        "      header.s=fm1 x-bits=2048;\n"
        "    dmarc=pass policy.published-domain-policy=reject\n"
        "      policy.applied-disposition=none "
        "policy.evaluated-disposition=none\n"
        "      (p=reject,d=none,d.eval=none) policy.policy-from=p\n"
        "      header.from=players.test;\n"
        "    iprev=pass smtp.remote-ip=198.51.100.7 (out.players.test);\n"
        "    spf=pass smtp.mailfrom=alice@players.test\n"
        "      smtp.helo=out.players.test;\n"
        "    x-aligned-from=pass (Address match);\n"
        "    x-me-sender=none;\n"
        "    x-tls=pass smtp.version=TLSv1.3 smtp.cipher=TLS_AES_256\n"
        "      smtp.bits=256/256;\n"
        "    x-vs=clean score=-100 state=0\n"
        "From: alice@players.test\n\n",
        "players.test", FM, 1);
    CHECK(v.cls == DJ_AUTH_AUTHENTICATED);
    CHECK_STR(v.verdict, "dmarc=pass header.from=players.test");

    /* Outlook.com's field without an authserv-id: unreadable */
    static const char *const OL[] = {"spf.protection.outlook.com"};
    v = eval("Authentication-Results: spf=pass (sender IP is 198.51.100.7)\n"
             " smtp.mailfrom=players.test; dkim=pass (signature was "
             "verified)\n header.d=players.test;dmarc=pass action=none\n"
             " header.from=players.test;compauth=pass reason=100\n\n",
             "players.test", OL, 1);
    CHECK(v.cls == DJ_AUTH_UNKNOWN);
    /* ...unless it names itself, as newer ones do */
    v = eval("Authentication-Results: spf.protection.outlook.com; "
             "spf=pass (sender IP is 198.51.100.7)\n"
             " smtp.mailfrom=players.test; dkim=pass (signature was "
             "verified)\n header.d=players.test;dmarc=pass action=none\n"
             " header.from=players.test;compauth=pass reason=100\n\n",
             "players.test", OL, 1);
    CHECK(v.cls == DJ_AUTH_AUTHENTICATED);
}

static void test_grammar(void)
{
    /* a version, a quoted authserv-id, spaces around '=' and '.' values,
     * comments everywhere, nested comments with quoted pairs */
    EXPECT("Authentication-Results: (c) mx.example.org (c) 1 (c) ;\n"
           " (c) dmarc (c) = (c) pass (c (nested \\) still) c) reason = "
           "\"quoted; with semicolon\" header.from = players.test (c)\n\n",
           "players.test", DJ_AUTH_AUTHENTICATED,
           "dmarc=pass header.from=players.test");
    EXPECT("Authentication-Results: \"mx.example.org\"; dmarc=pass "
           "header.from=\"players.test\"\n\n",
           "players.test", DJ_AUTH_AUTHENTICATED,
           "dmarc=pass header.from=players.test");
    /* method/version */
    EXPECT("Authentication-Results: mx.example.org; dmarc/1=pass "
           "header.from=players.test\n\n",
           "players.test", DJ_AUTH_AUTHENTICATED,
           "dmarc=pass header.from=players.test");
    /* OpenDKIM's AuthservIDWithJobID */
    EXPECT("Authentication-Results: mx.example.org/4Lq2x01bZ9z9s; "
           "dmarc=pass header.from=players.test\n\n",
           "players.test", DJ_AUTH_AUTHENTICATED,
           "dmarc=pass header.from=players.test");
    /* an unknown version: ignored */
    EXPECT("Authentication-Results: mx.example.org 2; dmarc=pass "
           "header.from=players.test\n\n",
           "players.test", DJ_AUTH_UNKNOWN,
           "no DMARC pass or aligned DKIM pass");
    /* none */
    EXPECT("Authentication-Results: mx.example.org; none\n\n",
           "players.test", DJ_AUTH_UNKNOWN,
           "no DMARC pass or aligned DKIM pass");
    EXPECT("Authentication-Results: mx.example.org 1; none (no checks)\n\n",
           "players.test", DJ_AUTH_UNKNOWN,
           "no DMARC pass or aligned DKIM pass");
    /* a "none" field and a real result in the same group */
    EXPECT("Authentication-Results: mx.example.org; none\n"
           "Authentication-Results: mx.example.org; dmarc=fail "
           "header.from=players.test\n\n",
           "players.test", DJ_AUTH_FORGED,
           "dmarc=fail header.from=players.test");
    /* unreadable fields add nothing: an unterminated comment, a quoted
     * string, a result without '=', a trailing junk word */
    EXPECT("Authentication-Results: mx.example.org; dmarc=pass (open "
           "header.from=players.test\n\n",
           "players.test", DJ_AUTH_UNKNOWN,
           "no DMARC pass or aligned DKIM pass");
    EXPECT("Authentication-Results: mx.example.org; dmarc=pass "
           "header.from=\"players.test\n\n",
           "players.test", DJ_AUTH_UNKNOWN,
           "no DMARC pass or aligned DKIM pass");
    EXPECT("Authentication-Results: mx.example.org; dmarc pass "
           "header.from=players.test\n\n",
           "players.test", DJ_AUTH_UNKNOWN,
           "no DMARC pass or aligned DKIM pass");
    EXPECT("Authentication-Results: mx.example.org; dmarc=\n\n",
           "players.test", DJ_AUTH_UNKNOWN,
           "no DMARC pass or aligned DKIM pass");
    /* a trailing ';' is fine */
    EXPECT("Authentication-Results: mx.example.org; dmarc=pass "
           "header.from=players.test;\n\n",
           "players.test", DJ_AUTH_AUTHENTICATED,
           "dmarc=pass header.from=players.test");
    /* header.from written as an address */
    EXPECT("Authentication-Results: mx.example.org; dmarc=pass "
           "header.from=alice@players.test\n\n",
           "players.test", DJ_AUTH_AUTHENTICATED,
           "dmarc=pass header.from=players.test");
    /* a dmarc pass without header.from says nothing of this domain */
    EXPECT("Authentication-Results: mx.example.org; dmarc=pass\n\n",
           "players.test", DJ_AUTH_UNKNOWN, "dmarc=pass header.from=?");
    /* results in capitals */
    EXPECT("AUTHENTICATION-RESULTS : MX.EXAMPLE.ORG; DMARC=FAIL "
           "HEADER.FROM=PLAYERS.TEST\n\n",
           "players.test", DJ_AUTH_FORGED,
           "dmarc=fail header.from=players.test");
    /* hostile bytes in a shown domain are replaced */
    EXPECT("Authentication-Results: mx.example.org; dmarc=fail "
           "header.from=pl\xff<b>.test\n\n",
           "players.test", DJ_AUTH_UNKNOWN,
           "dmarc=fail header.from=pl??b?.test");
}

static void test_bounds(void)
{
    /* a field longer than the reader's buffer: unreadable, still ends
     * nothing; the reader never reads past len */
    static char big[20000];
    size_t k = 0;
    k += (size_t)snprintf(big, sizeof big,
                          "Authentication-Results: mx.example.org; dmarc=pass "
                          "header.from=players.test");
    while (k < sizeof big - 100)
        k += (size_t)snprintf(big + k, sizeof big - k, " (%s)",
                              "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa");
    snprintf(big + k, sizeof big - k, "\n\n");
    dj_auth_verdict v = eval(big, "players.test", MX, 1);
    CHECK(v.cls == DJ_AUTH_UNKNOWN);
    /* deep comments */
    char deep[400];
    k = (size_t)snprintf(deep, sizeof deep,
                         "Authentication-Results: mx.example.org; ");
    for (int i = 0; i < 40; i++)
        deep[k++] = '(';
    for (int i = 0; i < 40; i++)
        deep[k++] = ')';
    k += (size_t)snprintf(deep + k, sizeof deep - k,
                          " dmarc=pass header.from=players.test\n\n");
    v = eval(deep, "players.test", MX, 1);
    CHECK(v.cls == DJ_AUTH_UNKNOWN);
    /* not NUL-terminated: only len bytes are read */
    const char *h = "Authentication-Results: mx.example.org; dmarc=fail "
                    "header.from=players.test";
    dj_authres_evaluate(h, 40, "players.test", MX, 1, &v);
    CHECK(v.cls == DJ_AUTH_UNKNOWN);
    dj_authres_evaluate(h, strlen(h), "players.test", MX, 1, &v);
    CHECK(v.cls == DJ_AUTH_FORGED);
    dj_authres_evaluate(NULL, 0, "players.test", MX, 1, &v);
    CHECK(v.cls == DJ_AUTH_UNKNOWN);
    /* a field name with no colon, an mbox line, NULs */
    static const char junk[] = "From alice@players.test Tue Dec  1\n"
                               "no colon here\n"
                               "X-Junk: a\0b\n"
                               "Authentication-Results: mx.example.org; "
                               "dmarc=pass header.from=players.test\n\n";
    dj_authres_evaluate(junk, sizeof junk - 1, "players.test", MX, 1, &v);
    CHECK(v.cls == DJ_AUTH_AUTHENTICATED);
    CHECK_STR(dj_auth_class_name(DJ_AUTH_FORGED), "forged");
    CHECK_STR(dj_auth_class_name(DJ_AUTH_AUTHENTICATED), "authenticated");
    CHECK_STR(dj_auth_class_name(DJ_AUTH_UNKNOWN), "unknown");
}

int main(void)
{
    test_postfix();
    test_forged();
    test_rspamd();
    test_dkim_only();
    test_providers();
    test_grammar();
    test_bounds();
    return test_summary();
}
