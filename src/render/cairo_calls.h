/*
 * cairo_calls.h — cairo, fontconfig (for its release at exit) and libpng
 * reached through a table filled when the first picture is drawn (render
 * room only).
 *
 * Why not link them like other libraries: cairo brings eighteen shared
 * libraries with it (pixman, fontconfig, freetype, X11, xcb...), and
 * loading them cost every judgectl and judged process about 1.5 ms before
 * main(), picture or not (`judgectl --version`: 3.2 ms linked, 1.7 ms
 * without): most of the start-up of `judgectl check`, which draws
 * nothing.  libpng (png_write.c) is drawn in with them: cairo uses it
 * too, so opening it with cairo costs nothing, where linking it cost
 * every process its loading.  util/dynlib.h describes the pattern; the
 * X-list here names the library of each function too.
 */
#ifndef DJ_RENDER_CAIRO_CALLS_H
#define DJ_RENDER_CAIRO_CALLS_H

#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <cairo.h>
#include <fontconfig/fontconfig.h>
#include <png.h>
#include <stddef.h>

/* X(library, function): DJ_CAIRO_LIB_CAIRO or DJ_CAIRO_LIB_FONTCONFIG. */
#define DJ_CAIRO_CALLS(X)                                                      \
    X(DJ_CAIRO_LIB_CAIRO, cairo_arc)                                           \
    X(DJ_CAIRO_LIB_CAIRO, cairo_clip)                                          \
    X(DJ_CAIRO_LIB_CAIRO, cairo_close_path)                                    \
    X(DJ_CAIRO_LIB_CAIRO, cairo_create)                                        \
    X(DJ_CAIRO_LIB_CAIRO, cairo_debug_reset_static_data)                       \
    X(DJ_CAIRO_LIB_CAIRO, cairo_destroy)                                       \
    X(DJ_CAIRO_LIB_CAIRO, cairo_fill)                                          \
    X(DJ_CAIRO_LIB_CAIRO, cairo_fill_preserve)                                 \
    X(DJ_CAIRO_LIB_CAIRO, cairo_image_surface_create)                          \
    X(DJ_CAIRO_LIB_CAIRO, cairo_image_surface_get_data)                        \
    X(DJ_CAIRO_LIB_CAIRO, cairo_image_surface_get_format)                      \
    X(DJ_CAIRO_LIB_CAIRO, cairo_image_surface_get_height)                      \
    X(DJ_CAIRO_LIB_CAIRO, cairo_image_surface_get_stride)                      \
    X(DJ_CAIRO_LIB_CAIRO, cairo_image_surface_get_width)                       \
    X(DJ_CAIRO_LIB_CAIRO, cairo_line_to)                                       \
    X(DJ_CAIRO_LIB_CAIRO, cairo_move_to)                                       \
    X(DJ_CAIRO_LIB_CAIRO, cairo_new_path)                                      \
    X(DJ_CAIRO_LIB_CAIRO, cairo_new_sub_path)                                  \
    X(DJ_CAIRO_LIB_CAIRO, cairo_pdf_surface_create_for_stream)                 \
    X(DJ_CAIRO_LIB_CAIRO, cairo_rectangle)                                     \
    X(DJ_CAIRO_LIB_CAIRO, cairo_restore)                                       \
    X(DJ_CAIRO_LIB_CAIRO, cairo_save)                                          \
    X(DJ_CAIRO_LIB_CAIRO, cairo_select_font_face)                              \
    X(DJ_CAIRO_LIB_CAIRO, cairo_set_dash)                                      \
    X(DJ_CAIRO_LIB_CAIRO, cairo_set_fill_rule)                                 \
    X(DJ_CAIRO_LIB_CAIRO, cairo_set_font_size)                                 \
    X(DJ_CAIRO_LIB_CAIRO, cairo_set_line_cap)                                  \
    X(DJ_CAIRO_LIB_CAIRO, cairo_set_line_join)                                 \
    X(DJ_CAIRO_LIB_CAIRO, cairo_set_line_width)                                \
    X(DJ_CAIRO_LIB_CAIRO, cairo_set_source_rgb)                                \
    X(DJ_CAIRO_LIB_CAIRO, cairo_show_text)                                     \
    X(DJ_CAIRO_LIB_CAIRO, cairo_status)                                        \
    X(DJ_CAIRO_LIB_CAIRO, cairo_status_to_string)                              \
    X(DJ_CAIRO_LIB_CAIRO, cairo_stroke)                                        \
    X(DJ_CAIRO_LIB_CAIRO, cairo_surface_destroy)                               \
    X(DJ_CAIRO_LIB_CAIRO, cairo_surface_finish)                                \
    X(DJ_CAIRO_LIB_CAIRO, cairo_surface_flush)                                 \
    X(DJ_CAIRO_LIB_CAIRO, cairo_surface_status)                                \
    X(DJ_CAIRO_LIB_CAIRO, cairo_surface_write_to_png_stream)                   \
    X(DJ_CAIRO_LIB_CAIRO, cairo_svg_surface_create_for_stream)                 \
    X(DJ_CAIRO_LIB_CAIRO, cairo_text_extents)                                  \
    X(DJ_CAIRO_LIB_CAIRO, cairo_translate)                                     \
    X(DJ_CAIRO_LIB_CAIRO, cairo_text_path)                                     \
    X(DJ_CAIRO_LIB_CAIRO, cairo_set_source_rgba)                               \
    X(DJ_CAIRO_LIB_CAIRO, cairo_push_group)                                    \
    X(DJ_CAIRO_LIB_CAIRO, cairo_pop_group_to_source)                           \
    X(DJ_CAIRO_LIB_CAIRO, cairo_paint_with_alpha)                              \
    X(DJ_CAIRO_LIB_CAIRO, cairo_recording_surface_create)                      \
    X(DJ_CAIRO_LIB_FONTCONFIG, FcFini)                                         \
    X(DJ_CAIRO_LIB_PNG, png_create_info_struct)                                \
    X(DJ_CAIRO_LIB_PNG, png_create_write_struct)                               \
    X(DJ_CAIRO_LIB_PNG, png_destroy_write_struct)                              \
    X(DJ_CAIRO_LIB_PNG, png_error)                                             \
    X(DJ_CAIRO_LIB_PNG, png_get_io_ptr)                                        \
    X(DJ_CAIRO_LIB_PNG, png_set_compression_level)                             \
    X(DJ_CAIRO_LIB_PNG, png_set_filter)                                        \
    X(DJ_CAIRO_LIB_PNG, png_set_IHDR)                                          \
    X(DJ_CAIRO_LIB_PNG, png_set_longjmp_fn)                                    \
    X(DJ_CAIRO_LIB_PNG, png_set_write_fn)                                      \
    X(DJ_CAIRO_LIB_PNG, png_write_end)                                         \
    X(DJ_CAIRO_LIB_PNG, png_write_info)                                        \
    X(DJ_CAIRO_LIB_PNG, png_write_row)

enum {
    DJ_CAIRO_LIB_CAIRO,
    DJ_CAIRO_LIB_FONTCONFIG,
    DJ_CAIRO_LIB_PNG,
    DJ_CAIRO_NLIBS
};

typedef struct dj_cairo_calls {
#define DJ_CAIRO_MEMBER(lib, fn) __typeof__(fn) *fn;
    DJ_CAIRO_CALLS(DJ_CAIRO_MEMBER)
#undef DJ_CAIRO_MEMBER
} dj_cairo_calls;

/* The table: all NULL until dj_cairo_load() has succeeded, then read only. */
extern dj_cairo_calls dj_cairo;

/* Open the libraries and fill the table, once per process (thread-safe);
 * 0, or -1 with the reason in err (no cairo on this machine). */
int dj_cairo_load(char *err, size_t errlen);

#ifndef DJ_CAIRO_LOADER /* cairo_calls.c names the members themselves */
#define cairo_arc (dj_cairo.cairo_arc)
#define cairo_clip (dj_cairo.cairo_clip)
#define cairo_close_path (dj_cairo.cairo_close_path)
#define cairo_create (dj_cairo.cairo_create)
#define cairo_debug_reset_static_data (dj_cairo.cairo_debug_reset_static_data)
#define cairo_destroy (dj_cairo.cairo_destroy)
#define cairo_fill (dj_cairo.cairo_fill)
#define cairo_fill_preserve (dj_cairo.cairo_fill_preserve)
#define cairo_image_surface_create (dj_cairo.cairo_image_surface_create)
#define cairo_image_surface_get_data (dj_cairo.cairo_image_surface_get_data)
#define cairo_image_surface_get_format (dj_cairo.cairo_image_surface_get_format)
#define cairo_image_surface_get_height (dj_cairo.cairo_image_surface_get_height)
#define cairo_image_surface_get_stride (dj_cairo.cairo_image_surface_get_stride)
#define cairo_image_surface_get_width (dj_cairo.cairo_image_surface_get_width)
#define cairo_line_to (dj_cairo.cairo_line_to)
#define cairo_move_to (dj_cairo.cairo_move_to)
#define cairo_new_path (dj_cairo.cairo_new_path)
#define cairo_new_sub_path (dj_cairo.cairo_new_sub_path)
#define cairo_pdf_surface_create_for_stream (dj_cairo.cairo_pdf_surface_create_for_stream)
#define cairo_rectangle (dj_cairo.cairo_rectangle)
#define cairo_restore (dj_cairo.cairo_restore)
#define cairo_save (dj_cairo.cairo_save)
#define cairo_select_font_face (dj_cairo.cairo_select_font_face)
#define cairo_set_dash (dj_cairo.cairo_set_dash)
#define cairo_set_fill_rule (dj_cairo.cairo_set_fill_rule)
#define cairo_set_font_size (dj_cairo.cairo_set_font_size)
#define cairo_set_line_cap (dj_cairo.cairo_set_line_cap)
#define cairo_set_line_join (dj_cairo.cairo_set_line_join)
#define cairo_set_line_width (dj_cairo.cairo_set_line_width)
#define cairo_set_source_rgb (dj_cairo.cairo_set_source_rgb)
#define cairo_show_text (dj_cairo.cairo_show_text)
#define cairo_status (dj_cairo.cairo_status)
#define cairo_status_to_string (dj_cairo.cairo_status_to_string)
#define cairo_stroke (dj_cairo.cairo_stroke)
#define cairo_surface_destroy (dj_cairo.cairo_surface_destroy)
#define cairo_surface_finish (dj_cairo.cairo_surface_finish)
#define cairo_surface_flush (dj_cairo.cairo_surface_flush)
#define cairo_surface_status (dj_cairo.cairo_surface_status)
#define cairo_surface_write_to_png_stream (dj_cairo.cairo_surface_write_to_png_stream)
#define cairo_svg_surface_create_for_stream (dj_cairo.cairo_svg_surface_create_for_stream)
#define cairo_text_extents (dj_cairo.cairo_text_extents)
#define cairo_translate (dj_cairo.cairo_translate)
#define cairo_text_path (dj_cairo.cairo_text_path)
#define cairo_set_source_rgba (dj_cairo.cairo_set_source_rgba)
#define cairo_push_group (dj_cairo.cairo_push_group)
#define cairo_pop_group_to_source (dj_cairo.cairo_pop_group_to_source)
#define cairo_paint_with_alpha (dj_cairo.cairo_paint_with_alpha)
#define cairo_recording_surface_create (dj_cairo.cairo_recording_surface_create)
#define FcFini (dj_cairo.FcFini)
#define png_create_info_struct (dj_cairo.png_create_info_struct)
#define png_create_write_struct (dj_cairo.png_create_write_struct)
#define png_destroy_write_struct (dj_cairo.png_destroy_write_struct)
#define png_error (dj_cairo.png_error)
#define png_get_io_ptr (dj_cairo.png_get_io_ptr)
#define png_set_compression_level (dj_cairo.png_set_compression_level)
#define png_set_filter (dj_cairo.png_set_filter)
#define png_set_IHDR (dj_cairo.png_set_IHDR)
#define png_set_longjmp_fn (dj_cairo.png_set_longjmp_fn)
#define png_set_write_fn (dj_cairo.png_set_write_fn)
#define png_write_end (dj_cairo.png_write_end)
#define png_write_info (dj_cairo.png_write_info)
#define png_write_row (dj_cairo.png_write_row)
#endif

#endif
