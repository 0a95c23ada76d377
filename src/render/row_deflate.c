/* SPDX-License-Identifier: MIT */
/*
 * row_deflate.c — a zlib stream (RFC 1950, deflate of RFC 1951) for a
 * picture's rows, made in time proportional to what differs.
 *
 * A board's picture is rows of palette indices made of long runs of one
 * colour, and most of each row is the row above it.  zlib's general
 * matcher looks for matches at every byte that starts no long one and
 * took two fifths of a PNG's time; here only the two matches that pay on
 * such an image are tried — the row above (distance: one row) and the
 * byte before (distance 1: a run) — the longer taken from three bytes
 * on, else the byte as a literal.  Comparing is eight bytes at a time,
 * so a stretch the same as the row above costs next to nothing.  The
 * tokens are then written as dynamic-Huffman blocks (codes built from
 * each block's own counts, at most 15 bits long), which makes the file
 * about as small as zlib's level 1 makes it (the standard board ~100 KB)
 * in a few times less time.
 */
#include "render/row_deflate.h"

#include "render/bytes.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MIN_MATCH 3
#define MAX_MATCH 258
#define BLOCK_TOKENS 65536
#define LITLEN_CODES 286
#define DIST_CODES 30
#define MAX_BITS 15

/* ---- bits out ------------------------------------------------------------ */

typedef struct bits_out {
    bytes b;
    uint64_t acc; /* bits waiting, the first in the lowest place */
    int nacc;
    bool failed;
} bits_out;

/* Room for at least `more` bytes; false (and failed) when out of memory. */
static bool reserve(bits_out *o, size_t more)
{
    if (!bytes_reserve(&o->b, more))
        o->failed = true;
    return !o->failed;
}

static void put_byte(bits_out *o, unsigned char b)
{
    if (reserve(o, 1))
        o->b.data[o->b.len++] = b;
}

/* n (<= 32) bits of v, lowest first, as deflate packs them, into room
 * reserved beforehand (each block reserves what it can take). */
static inline void put_bits(bits_out *o, uint32_t v, int n)
{
    o->acc |= (uint64_t)v << o->nacc;
    o->nacc += n;
    while (o->nacc >= 8) {
        o->b.data[o->b.len++] = (unsigned char)o->acc;
        o->acc >>= 8;
        o->nacc -= 8;
    }
}

static void flush_bits(bits_out *o)
{
    if (o->nacc > 0)
        put_byte(o, (unsigned char)o->acc);
    o->acc = 0;
    o->nacc = 0;
}

/* ---- the codes of RFC 1951 ------------------------------------------------- */

static const uint16_t length_base[29] = {
    3,  4,  5,  6,  7,  8,  9,  10, 11,  13,  15,  17,  19,  23, 27,
    31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
static const uint8_t length_extra[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1,
                                         1, 1, 2, 2, 2, 2, 3, 3, 3, 3,
                                         4, 4, 4, 4, 5, 5, 5, 5, 0};
static const uint16_t dist_base[30] = {
    1,    2,    3,    4,    5,    7,     9,     13,    17,  25,
    33,   49,   65,   97,   129,  193,   257,   385,   513, 769,
    1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577};
static const uint8_t dist_extra[30] = {0, 0, 0, 0, 1, 1, 2,  2,  3,  3,
                                       4, 4, 5, 5, 6, 6, 7,  7,  8,  8,
                                       9, 9, 10, 10, 11, 11, 12, 12, 13, 13};

static int length_code(int len) /* 0..28 */
{
    static uint8_t code_of[MAX_MATCH + 1];
    if (!code_of[MAX_MATCH]) { /* made at the first use */
        int k = 0;
        for (int l = MIN_MATCH; l <= MAX_MATCH; l++) {
            while (k < 28 && length_base[k + 1] <= l)
                k++;
            code_of[l] = (uint8_t)k;
        }
    }
    return code_of[len];
}

static int dist_code(int dist) /* 0..29 */
{
    int k = 29;
    while (dist_base[k] > dist)
        k--;
    return k;
}

static int dist_code_kept(int dist, int seen[2], int code[2])
{
    if (dist == seen[0])
        return code[0];
    if (dist != seen[1]) {
        seen[1] = dist;
        code[1] = dist_code(dist);
    }
    int c = code[1]; /* now the latest */
    seen[1] = seen[0];
    code[1] = code[0];
    seen[0] = dist;
    code[0] = c;
    return c;
}

/* ---- Huffman codes ----------------------------------------------------------- */

typedef struct huff_node {
    uint32_t weight;
    int left, right; /* children, -1 for a leaf */
    int symbol;
} huff_node;

static void depths(const huff_node *nodes, int at, int depth, uint8_t *len)
{
    if (nodes[at].left < 0) {
        len[nodes[at].symbol] = (uint8_t)(depth ? depth : 1);
        return;
    }
    depths(nodes, nodes[at].left, depth + 1, len);
    depths(nodes, nodes[at].right, depth + 1, len);
}

/*
 * Code lengths for n symbols of these counts, none over max_bits: a
 * Huffman tree, and while it is too deep the counts halved (a count of
 * one stays one) and the tree built again.  Symbols never used get 0;
 * at least two symbols get a code (deflate's decoders want a complete
 * code), so unused ones are given a count of one when needed.
 */
static void code_lengths(const uint32_t *counts, int n, int max_bits,
                         uint8_t *len)
{
    uint32_t w[LITLEN_CODES];
    int used = 0;
    for (int i = 0; i < n; i++)
        used += (w[i] = counts[i]) > 0;
    for (int i = 0; used < 2 && i < n; i++)
        if (!w[i]) {
            w[i] = 1;
            used++;
        }
    huff_node nodes[2 * LITLEN_CODES];
    for (;;) {
        /* The leaves in order of weight, then merge the two lightest of
         * the leaves and the made nodes (two queues, both in order). */
        int nleaves = 0;
        for (int i = 0; i < n; i++)
            if (w[i]) {
                int k = nleaves++;
                while (k > 0 && nodes[k - 1].weight > w[i]) {
                    nodes[k] = nodes[k - 1];
                    k--;
                }
                nodes[k] = (huff_node){w[i], -1, -1, i};
            }
        int leaf = 0, made = nleaves, nnodes = nleaves;
        while (nnodes - made + (nleaves - leaf) > 1) {
            int pick[2];
            for (int p = 0; p < 2; p++) {
                if (leaf < nleaves &&
                    (made >= nnodes || nodes[leaf].weight <= nodes[made].weight))
                    pick[p] = leaf++;
                else
                    pick[p] = made++;
            }
            nodes[nnodes] = (huff_node){nodes[pick[0]].weight +
                                            nodes[pick[1]].weight,
                                        pick[0], pick[1], -1};
            nnodes++;
        }
        memset(len, 0, (size_t)n);
        depths(nodes, nnodes - 1, 0, len);
        int deepest = 0;
        for (int i = 0; i < n; i++)
            deepest = len[i] > deepest ? len[i] : deepest;
        if (deepest <= max_bits)
            return;
        for (int i = 0; i < n; i++)
            if (w[i])
                w[i] = (w[i] + 1) / 2;
    }
}

/* The canonical codes of these lengths (RFC 1951 3.2.2), bit-reversed
 * since deflate sends a code's first bit first. */
static void canonical_codes(const uint8_t *len, int n, uint16_t *code)
{
    int count[MAX_BITS + 1] = {0};
    for (int i = 0; i < n; i++)
        count[len[i]]++;
    count[0] = 0;
    int next[MAX_BITS + 2];
    int c = 0;
    for (int bits = 1; bits <= MAX_BITS; bits++) {
        c = (c + count[bits - 1]) << 1;
        next[bits] = c;
    }
    for (int i = 0; i < n; i++) {
        if (!len[i])
            continue;
        int v = next[len[i]]++, r = 0;
        for (int b = 0; b < len[i]; b++)
            r |= (v >> b & 1) << (len[i] - 1 - b);
        code[i] = (uint16_t)r;
    }
}

/* ---- blocks ---------------------------------------------------------------- */

/* A token: a literal byte (dist 0), or a match of len bytes dist back. */
typedef struct token {
    uint16_t len; /* the byte itself for a literal */
    uint16_t dist;
} token;

static void put_block(bits_out *o, const token *t, int n, bool last)
{
    /* At most 48 bits a token, and the block's header. */
    if (!reserve(o, (size_t)n * 6 + 1024))
        return;
    uint32_t lcount[LITLEN_CODES] = {0}, dcount[DIST_CODES] = {0};
    /* A block's distances are few (mostly 1 and a row): the codes of the
     * last two are kept. */
    int dist_seen[2] = {0, 0}, code_seen[2] = {0, 0};
    for (int i = 0; i < n; i++) {
        if (t[i].dist == 0) {
            lcount[t[i].len]++;
        } else {
            lcount[257 + length_code(t[i].len)]++;
            dcount[dist_code_kept(t[i].dist, dist_seen, code_seen)]++;
        }
    }
    lcount[256] = 1; /* the end of the block */
    uint8_t lens[LITLEN_CODES + DIST_CODES];
    uint8_t *llen = lens, *dlen = lens + LITLEN_CODES;
    code_lengths(lcount, LITLEN_CODES, MAX_BITS, llen);
    code_lengths(dcount, DIST_CODES, MAX_BITS, dlen);
    int hlit = LITLEN_CODES, hdist = DIST_CODES;
    while (hlit > 257 && !llen[hlit - 1])
        hlit--;
    while (hdist > 1 && !dlen[hdist - 1])
        hdist--;
    /* The code lengths, run-length coded (16: the last again 3-6 times,
     * 17: 3-10 zeros, 18: 11-138 zeros), as one sequence. */
    uint8_t seq[LITLEN_CODES + DIST_CODES];
    int nseq = 0;
    memcpy(seq, llen, (size_t)hlit);
    nseq = hlit;
    memcpy(seq + nseq, dlen, (size_t)hdist);
    nseq += hdist;
    uint8_t rle_sym[LITLEN_CODES + DIST_CODES];
    uint8_t rle_extra[LITLEN_CODES + DIST_CODES];
    int nrle = 0;
    uint32_t ccount[19] = {0};
    for (int i = 0; i < nseq;) {
        int run = 1;
        while (i + run < nseq && seq[i + run] == seq[i])
            run++;
        if (seq[i] == 0 && run >= 3) {
            int r = run > 138 ? 138 : run;
            rle_sym[nrle] = r >= 11 ? 18 : 17;
            rle_extra[nrle++] = (uint8_t)(r >= 11 ? r - 11 : r - 3);
            i += r;
        } else if (seq[i] != 0 && run >= 4) {
            rle_sym[nrle] = seq[i];
            rle_extra[nrle++] = 0;
            int r = run - 1 > 6 ? 6 : run - 1;
            rle_sym[nrle] = 16;
            rle_extra[nrle++] = (uint8_t)(r - 3);
            i += 1 + r;
        } else {
            rle_sym[nrle] = seq[i];
            rle_extra[nrle++] = 0;
            i++;
        }
    }
    for (int i = 0; i < nrle; i++)
        ccount[rle_sym[i]]++;
    uint8_t clen[19];
    uint16_t ccode[19];
    code_lengths(ccount, 19, 7, clen);
    canonical_codes(clen, 19, ccode);
    static const uint8_t order[19] = {16, 17, 18, 0, 8,  7, 9,  6, 10, 5,
                                      11, 4,  12, 3, 13, 2, 14, 1, 15};
    int hclen = 19;
    while (hclen > 4 && !clen[order[hclen - 1]])
        hclen--;
    put_bits(o, last ? 1 : 0, 1);
    put_bits(o, 2, 2); /* dynamic Huffman codes */
    put_bits(o, (uint32_t)(hlit - 257), 5);
    put_bits(o, (uint32_t)(hdist - 1), 5);
    put_bits(o, (uint32_t)(hclen - 4), 4);
    for (int i = 0; i < hclen; i++)
        put_bits(o, clen[order[i]], 3);
    static const uint8_t rle_bits[19] = {[16] = 2, [17] = 3, [18] = 7};
    for (int i = 0; i < nrle; i++) {
        put_bits(o, ccode[rle_sym[i]], clen[rle_sym[i]]);
        if (rle_sym[i] >= 16)
            put_bits(o, rle_extra[i], rle_bits[rle_sym[i]]);
    }
    uint16_t lcode[LITLEN_CODES], dcode[DIST_CODES];
    canonical_codes(llen, LITLEN_CODES, lcode);
    canonical_codes(dlen, DIST_CODES, dcode);
    for (int i = 0; i < n; i++) {
        if (t[i].dist == 0) {
            put_bits(o, lcode[t[i].len], llen[t[i].len]);
            continue;
        }
        int lc = length_code(t[i].len);
        int dc = dist_code_kept(t[i].dist, dist_seen, code_seen);
        put_bits(o, lcode[257 + lc], llen[257 + lc]);
        put_bits(o, (uint32_t)(t[i].len - length_base[lc]), length_extra[lc]);
        put_bits(o, dcode[dc], dlen[dc]);
        put_bits(o, (uint32_t)(t[i].dist - dist_base[dc]), dist_extra[dc]);
    }
    put_bits(o, lcode[256], llen[256]);
}

/* ---- matching -------------------------------------------------------------- */

/* Of two 8-byte words read from memory that differ, how many of their
 * first bytes are the same. */
static size_t same_prefix(uint64_t x, uint64_t y)
{
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    return (size_t)__builtin_ctzll(x ^ y) / 8;
#else
    unsigned char a[8], b[8];
    memcpy(a, &x, 8);
    memcpy(b, &y, 8);
    size_t n = 0;
    while (a[n] == b[n])
        n++;
    return n;
#endif
}

/* How many of the bytes at a (at most max) equal those at b. */
static size_t same_bytes(const unsigned char *a, const unsigned char *b,
                         size_t max)
{
    size_t n = 0;
    while (n + 8 <= max) {
        uint64_t x, y;
        memcpy(&x, a + n, 8);
        memcpy(&y, b + n, 8);
        if (x != y)
            return n + same_prefix(x, y);
        n += 8;
    }
    while (n < max && a[n] == b[n])
        n++;
    return n;
}

/* How many of the bytes at a (at most max) are c. */
static size_t run_of(const unsigned char *a, unsigned char c, size_t max)
{
    uint64_t all = 0x0101010101010101ull * c;
    size_t n = 0;
    while (n + 8 <= max) {
        uint64_t x;
        memcpy(&x, a + n, 8);
        if (x != all)
            return n + same_prefix(x, all);
        n += 8;
    }
    while (n < max && a[n] == c)
        n++;
    return n;
}

void row_adler_run(row_adler *sum, unsigned char byte, size_t count)
{
    /* count bytes of one value at once: the first sum grows by
     * byte * count, the second by count times the first sum and byte
     * times 1 + 2 + ... + count.  The sums are reduced modulo 65521 only
     * when they grow large (a division is dear, a run is short). */
    while (count > 0) {
        uint64_t k = count < 65536 ? count : 65536;
        count -= k;
        sum->b += k * sum->a + byte * (k * (k + 1) / 2);
        sum->a += byte * k;
        if (sum->a >= (1ull << 31))
            sum->a %= 65521;
        if (sum->b >= (1ull << 62))
            sum->b %= 65521;
    }
}

uint32_t row_adler_value(const row_adler *sum)
{
    return (uint32_t)(sum->b % 65521 << 16 | sum->a % 65521);
}

bool row_deflate(const unsigned char *data, size_t n, size_t row,
                 const row_adler *sum, unsigned char **out, size_t *outlen)
{
    uint32_t adler = row_adler_value(sum);
    *out = NULL;
    *outlen = 0;
    if (row == 0 || row > 32768)
        return false; /* the row above must be within deflate's window */
    token *t = malloc(sizeof *t * BLOCK_TOKENS);
    bits_out o = {0};
    if (!t)
        return false;
    put_byte(&o, 0x78); /* deflate, 32 KB window */
    put_byte(&o, 0x01); /* no dictionary, check bits */
    size_t i = 0;
    do {
        int nt = 0;
        while (i < n && nt < BLOCK_TOKENS) {
            size_t max = n - i < MAX_MATCH ? n - i : MAX_MATCH;
            size_t up = i >= row ? same_bytes(data + i, data + i - row, max) : 0;
            size_t run = i >= 1 ? run_of(data + i, data[i - 1], max) : 0;
            if (run >= MIN_MATCH && run >= up) {
                t[nt++] = (token){(uint16_t)run, 1};
                i += run;
            } else if (up >= MIN_MATCH) {
                t[nt++] = (token){(uint16_t)up, (uint16_t)row};
                i += up;
            } else {
                t[nt++] = (token){data[i], 0};
                i++;
            }
        }
        put_block(&o, t, nt, i >= n);
    } while (i < n && !o.failed);
    flush_bits(&o);
    for (int k = 3; k >= 0; k--)
        put_byte(&o, (unsigned char)(adler >> (8 * k)));
    free(t);
    if (o.failed) {
        free(o.b.data);
        return false;
    }
    *out = o.b.data;
    *outlen = o.b.len;
    return true;
}
