// The shared-memory swizzle modes of wgmma's matrix descriptors (and TMA's tensor maps), drawn for the bank
// view of the hopper rungs, whose tiles no lane addresses: one swizzle atom per mode as the banks see it,
// 128-byte lines of 8 sixteen-byte slots (4 banks each), every chunk labelled "row,chunk" of the tile and
// coloured by its chunk column, so a core matrix (8 rows of one column, what a wgmma reads at once) shows
// where its 8 pieces went.
#include <algorithm>
#include <string>

#include "core/smem_swizzle.h"
#include "viz/draw_util.h"
#include "viz/views.h"

namespace gs {

void draw_swizzle_modes(Canvas& c, Rect r, const Theme& t, float fs) {
  const std::vector<SwizzleModeAtom> atoms = swizzle_mode_atoms();
  const float gap = fs * 1.2f;
  float y = r.min.y;
  // What the picture says, above it.
  const std::string lead =
      "Every mode puts a core matrix's 8 rows (one colour) in 8 different slots: one wavefront. The modes differ "
      "in how wide a row TMA writes in one piece, 16 to 128 bytes; the rungs' k-tiles of 64 halves are one "
      "128-byte row, so they use 128B. Unswizzled 128-byte rows (right) would stack a core matrix in one slot: 8-way.";
  for (const std::string& line : viz::wrap(c, lead, fs, r.w())) {
    c.text({r.min.x, y}, line, t.text_dim, fs);
    y += fs * 1.3f;
  }
  y += fs * 0.6f;
  const int n = static_cast<int>(atoms.size());
  const float col_w = (r.w() - gap * (n - 1)) / n;
  const float cell_w = col_w / 8;
  const float cell_h = std::clamp(cell_w * 0.62f, kMinTextSize * 1.2f, fs * 2.2f);
  const float label_fs = viz::fit_size(c, "7,7", std::min(cell_h * 0.62f, fs), kMinTextSize, Font::Sans, cell_w * 0.9f);
  // Titles (three lines), the tallest atom (8 lines) and the verdict, or a pointer to where they fit.
  const float need = fs * 1.5f + fs * 2.5f + fs * 0.3f + 8 * cell_h + fs * 0.4f + fs * 1.2f + fs * 2.8f;
  if (y + need > r.max.y || col_w < fs * 6) {
    for (const std::string& line :
         viz::wrap(c,
                   viz::hint("Maximise this view (double-click its title) to see one atom of each mode.",
                             "A larger picture shows one atom of each mode."),
                   fs, r.w())) {
      c.text({r.min.x, y}, line, t.text_dim, fs);
      y += fs * 1.3f;
    }
    return;
  }
  for (int i = 0; i < n; ++i) {
    const SwizzleModeAtom& a = atoms[size_t(i)];
    const float x0 = r.min.x + i * (col_w + gap);
    float yy = y;
    const std::string title = a.desc_field == 1 ? a.name + " (the rungs')" : a.name;
    c.text({x0, yy}, viz::elide(c, title, fs * 1.1f, Font::SansBold, col_w), a.desc_field < 0 ? t.bad : t.text,
           fs * 1.1f, Align::Left, Font::SansBold);
    yy += fs * 1.5f;
    const std::string sub1 = "rows of " + std::to_string(a.row_bytes) + " B; 8 rows fill " + std::to_string(a.lines) +
                             (a.lines == 1 ? " line" : " lines");
    const std::string sub2 = a.desc_field >= 0 ? "descriptor swizzle " + std::to_string(a.desc_field) : "no descriptor mode";
    for (const std::string& s : {sub1, sub2}) {
      c.text({x0, yy}, viz::elide(c, s, fs * 0.9f, Font::Sans, col_w), t.text_dim, std::max(kMinTextSize, fs * 0.9f));
      yy += fs * 1.25f;
    }
    yy += fs * 0.3f;
    if (yy + a.lines * cell_h > r.max.y - fs * 2.8f) return;  // too little room: the sentences above stand alone
    for (const SwizzleModeAtom::Cell& x : a.cells) {
      const Rect cell{{x0 + x.slot * cell_w + 0.5f, yy + x.line * cell_h + 0.5f},
                      {x0 + (x.slot + 1) * cell_w - 0.5f, yy + (x.line + 1) * cell_h - 0.5f}};
      const Color fill = lane_color(4 * x.chunk + 1, t);  // one hue family per chunk column
      c.rect_filled(cell, fill);
      if (label_fs > 0)
        c.text({cell.center().x, cell.center().y - label_fs * 0.5f}, std::to_string(x.row) + "," + std::to_string(x.chunk),
               text_on(fill), label_fs, Align::Center);
    }
    yy += a.lines * cell_h + fs * 0.4f;
    const int worst = *std::min_element(a.slots_per_column.begin(), a.slots_per_column.end());
    const std::string verdict = worst == 8 ? "core matrix: 8 slots, 1 wavefront"
                                           : "core matrix: " + std::to_string(worst) + (worst == 1 ? " slot, " : " slots, ") +
                                                 std::to_string(8 / worst) + "-way";
    c.text({x0, yy}, viz::elide(c, verdict, fs, Font::SansBold, col_w), worst == 8 ? t.good : t.bad, fs, Align::Left,
           Font::SansBold);
  }
  // The bank axis, once, under the first mode's title row: slot s is banks 4s .. 4s + 3.
  c.text({r.min.x, r.max.y - fs * 1.3f},
         viz::elide(c, "each line: 128 bytes = 32 banks; a slot (cell) is 16 bytes, banks 4s to 4s+3; label: tile row, "
                       "16-byte chunk of the row",
                    fs * 0.9f, Font::Sans, r.w()),
         t.text_dim, std::max(kMinTextSize, fs * 0.9f));
}

}  // namespace gs
