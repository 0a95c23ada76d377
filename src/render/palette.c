/* SPDX-License-Identifier: MIT */
/*
 * palette.c — the colours of the pictures, in one place: the powers'
 * colours (told apart by colour-blind players too, see below) and the
 * board's own colours.
 */
#include <math.h>
#include <string.h>

#include "render/palette.h"
#include "render/render.h"

/*
 * The powers' colours.  The first ten are the board's usual colours
 * (Austria red, England indigo, France blue, Germany grey, Italy green,
 * Russia violet, Turkey yellow; China, India and Japan after them), moved
 * until every pair stays at least 14 apart in CIEDE2000 as seen with
 * normal vision, deuteranopia and protanopia (Machado, Oliveira and
 * Fernandes' simulation), and each at least 18 from the land and the sea;
 * the next 24, for boards of many powers (Chaos), were chosen one by one
 * as far as could be from all before them in the same three visions (at
 * least 6 apart).  tests/unit/test_palette.c measures all of it.
 */
static const unsigned char colours[][3] = {
    {152, 34, 30},   {75, 66, 127},   {67, 151, 245},  {67, 70, 74},
    {69, 187, 102},  {134, 0, 247},   {237, 224, 16},  {157, 103, 92},
    {199, 80, 17},   {150, 117, 145},
    {176, 160, 160}, {224, 128, 0},   {176, 64, 112},  {240, 80, 192},
    {160, 224, 128}, {160, 80, 160},  {48, 112, 112},  {0, 160, 128},
    {128, 64, 64},   {208, 176, 160}, {96, 0, 192},    {208, 192, 192},
    {160, 176, 240}, {160, 128, 80},  {192, 192, 64},  {208, 112, 128},
    {176, 64, 48},   {160, 144, 160}, {160, 80, 208},  {144, 16, 80},
    {224, 160, 192}, {112, 144, 192}, {48, 80, 16},    {48, 176, 48},
};
#define NCOLOURS (int)(sizeof colours / sizeof colours[0])

/* The colour a power of this name has on every board, when it is free. */
static const char *const usual[] = {"Austria", "England", "France",
                                    "Germany", "Italy",   "Russia",
                                    "Turkey",  "China",   "India",
                                    "Japan"};

/* Powers named after a colour (Chromatic's) wear the usual colour that is
 * it: Blue France's, Red Austria's, Dark Germany's grey, Yellow Turkey's. */
static const struct {
    const char *name;
    int slot;
} named[] = {{"Red", 0}, {"Blue", 2}, {"Dark", 3}, {"Yellow", 6}};

static int usual_slot(const char *name)
{
    for (int i = 0; i < (int)(sizeof usual / sizeof usual[0]); i++)
        if (strcmp(name, usual[i]) == 0)
            return i;
    for (int i = 0; i < (int)(sizeof named / sizeof named[0]); i++)
        if (strcmp(name, named[i].name) == 0)
            return named[i].slot;
    return -1;
}

/*
 * The colour of power p on this map: its usual one when its name has one,
 * else the first colour no power before it took (the usual colours of the
 * map's other powers kept for them).  -1 past the table.
 */
static int slot_of(const dj_map *map, int power)
{
    int want = usual_slot(map->powers[power].name);
    if (want >= 0)
        return want;
    dj_power_set taken = 0; /* 64 bits: enough for the table's slots */
    for (int p = 0; p < map->npowers; p++) {
        int u = usual_slot(map->powers[p].name);
        if (u >= 0)
            taken |= DJ_POWER_BIT(u);
    }
    int slot = -1;
    for (int p = 0; p <= power; p++) {
        if (usual_slot(map->powers[p].name) >= 0)
            continue;
        do
            slot++;
        while (slot < NCOLOURS && (taken & DJ_POWER_BIT(slot)));
    }
    return slot < NCOLOURS ? slot : -1;
}

static void hsv_to_rgb(double h, double s, double v, double rgb[3])
{
    double c = v * s, hp = fmod(h, 360.0) / 60.0;
    double x = c * (1 - fabs(fmod(hp, 2.0) - 1));
    double r = 0, g = 0, b = 0;
    if (hp < 1) r = c, g = x;
    else if (hp < 2) r = x, g = c;
    else if (hp < 3) g = c, b = x;
    else if (hp < 4) g = x, b = c;
    else if (hp < 5) r = x, b = c;
    else r = c, b = x;
    rgb[0] = r + v - c;
    rgb[1] = g + v - c;
    rgb[2] = b + v - c;
}

void dj_render_power_colour(const dj_map *map, int power, double rgb[3])
{
    int slot = map && power >= 0 && power < map->npowers
                   ? slot_of(map, power)
                   : (power >= 0 && power < NCOLOURS ? power : -1);
    if (slot >= 0) {
        for (int i = 0; i < 3; i++)
            rgb[i] = colours[slot][i] / 255.0;
        return;
    }
    /* Past the table (more than 34 powers): golden-angle hues. */
    int k = power < 0 ? 0 : power;
    hsv_to_rgb(20.0 + 137.508 * k, 0.65, (k % 2) ? 0.62 : 0.88, rgb);
}

void dj_render_owned_fill(const dj_map *map, int power, double rgb[3])
{
    dj_render_power_colour(map, power, rgb);
    for (int i = 0; i < 3; i++)
        rgb[i] = 0.55 * rgb[i] + 0.45;
}

bool palette_is_dark(const double rgb[3])
{
    return 0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2] < 0.5;
}

const double palette_sea[3] = {0.69, 0.82, 0.91};
const double palette_land[3] = {0.94, 0.90, 0.80};
const double palette_neutral[3] = {0.84, 0.82, 0.78};
const double palette_impassable[3] = {0.55, 0.52, 0.49};
const double palette_border[3] = {0.35, 0.33, 0.30};
const double palette_sea_border[3] = {0.52, 0.66, 0.78};
const double palette_hatch[3] = {0.25, 0.23, 0.22};
/* Names: land, sea, coast, impassable; a pale halo round dark ink. */
const double palette_label_ink[5][3] = {{0.16, 0.14, 0.12},
                                        {0.14, 0.28, 0.45},
                                        {0.06, 0.20, 0.42},
                                        {1, 1, 1},
                                        {0.55, 0.0, 0.0}};
const double palette_label_halo[5][3] = {{1, 0.99, 0.95},
                                         {0.86, 0.93, 0.98},
                                         {0.86, 0.93, 0.98},
                                         {0.20, 0.19, 0.18},
                                         {1, 1, 1}};
const double palette_background[3] = {1, 1, 1};

void dj_render_board_colours(double land[3], double sea[3])
{
    memcpy(land, palette_land, sizeof palette_land);
    memcpy(sea, palette_sea, sizeof palette_sea);
}
