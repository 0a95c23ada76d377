/*
 * palette.c — the colours of the pictures, in one place: the powers'
 * colours (Okabe and Ito's palette, safe for colour-blind players, then
 * golden-angle hues for boards with more than eight powers) and the
 * board's own colours.
 */
#include <math.h>

#include "render/palette.h"
#include "render/render.h"

static const unsigned char okabe_ito[8][3] = {
    {213, 94, 0},    /* vermillion (Austria on the standard board) */
    {0, 114, 178},   /* blue (England) */
    {86, 180, 233},  /* sky blue (France) */
    {95, 95, 95},    /* dark grey (Germany) */
    {0, 158, 115},   /* bluish green (Italy) */
    {204, 121, 167}, /* reddish purple (Russia) */
    {240, 228, 66},  /* yellow (Turkey) */
    {230, 159, 0},   /* orange */
};

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

void dj_render_power_colour(int power, double rgb[3])
{
    if (power >= 0 && power < 8) {
        for (int i = 0; i < 3; i++)
            rgb[i] = okabe_ito[power][i] / 255.0;
        return;
    }
    /* Golden-angle hues, alternating two brightnesses. */
    int k = power < 0 ? 0 : power - 8;
    hsv_to_rgb(20.0 + 137.508 * k, 0.65, (k % 2) ? 0.62 : 0.88, rgb);
}

void dj_render_owned_fill(int power, double rgb[3])
{
    dj_render_power_colour(power, rgb);
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
const double palette_background[3] = {1, 1, 1};
