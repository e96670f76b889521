// SVG back end: every Canvas call appends one element, so the export is the screen's drawing code.
#include <algorithm>
#include <cstdio>
#include <string>
#include <utility>

#include "viz/canvas.h"

namespace gs {
namespace {

// DejaVu's ascent and descent are 1901 and 483 of 2048 units: a line of `size` pixels is
// size / 1.164 em, and the baseline sits 0.797 * size below the top (ImGui's placement).
constexpr float kEmPerLine = 2048.0f / (1901 + 483);
constexpr float kAscentPerLine = 1901.0f / (1901 + 483);

// Advance widths of ASCII 32..126 in thousandths of an em, read from DejaVuSans.ttf and
// DejaVuSans-Bold.ttf; DejaVu Sans Mono advances 602 for every glyph.
constexpr short kSansAdvance[95] = {
    318, 401, 460, 838, 636, 950, 780, 275, 390, 390, 500, 838, 318, 361, 318, 337, 636, 636, 636,
    636, 636, 636, 636, 636, 636, 636, 337, 337, 838, 838, 838, 531, 1000, 684, 686, 698, 770, 632,
    575, 775, 752, 295, 295, 656, 557, 863, 748, 787, 603, 787, 695, 635, 611, 732, 684, 989, 685,
    611, 685, 390, 337, 390, 838, 500, 500, 613, 635, 550, 635, 615, 352, 635, 634, 278, 278, 579,
    278, 974, 634, 612, 635, 635, 411, 521, 392, 634, 592, 818, 592, 592, 525, 636, 337, 636, 838};
constexpr short kBoldAdvance[95] = {
    348, 456, 521, 838, 696, 1002, 872, 306, 457, 457, 523, 838, 380, 415, 380, 365, 696, 696, 696,
    696, 696, 696, 696, 696, 696, 696, 400, 400, 838, 838, 838, 580, 1000, 774, 762, 734, 830, 683,
    683, 821, 837, 372, 372, 775, 637, 995, 837, 850, 733, 850, 770, 720, 682, 812, 774, 1103, 771,
    724, 725, 457, 365, 457, 838, 500, 500, 675, 716, 593, 716, 678, 435, 716, 712, 343, 343, 665,
    343, 1042, 712, 687, 716, 716, 493, 595, 478, 712, 652, 924, 645, 652, 582, 712, 365, 712, 838};

// Decodes one UTF-8 code point at s[i] and advances i; a stray byte counts as itself.
unsigned next_codepoint(std::string_view s, size_t& i) {
  unsigned c = (unsigned char)s[i++];
  int extra = c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : c >= 0xC0 ? 1 : 0;
  if (extra) c &= 0x3F >> extra;
  for (; extra > 0 && i < s.size() && ((unsigned char)s[i] & 0xC0) == 0x80; --extra)
    c = (c << 6) | ((unsigned char)s[i++] & 0x3F);
  return c;
}

float advance_em(unsigned cp, Font font) {
  if (font == Font::Mono) return 0.602f;
  const short* table = font == Font::SansBold ? kBoldAdvance : kSansAdvance;
  if (cp >= 32 && cp < 127) return table[cp - 32] / 1000.0f;
  switch (cp) {
    case 0xB7: return table['.' - 32] / 1000.0f;  // middle dot: as wide as a period
    case 0xD7: case 0x2212: return 0.838f;         // multiplication and minus signs
    case 0x2013: return 0.5f;
    case 0x2014: case 0x2026: return 1.0f;
    default: return font == Font::SansBold ? 0.7f : 0.64f;  // a typical letter
  }
}

// Shortest decimal form with at most two fractional digits: coordinates stay readable and small.
std::string num(float v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  std::string s = buf;
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  if (s == "-0") s = "0";
  return s;
}

std::string hex(Color c) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x", c.r, c.g, c.b);
  return buf;
}

// `fill="#rrggbb"` plus its opacity where the colour is translucent.
std::string paint(const char* what, Color c) {
  std::string s = std::string(" ") + what + "=\"" + hex(c) + "\"";
  if (c.a != 255) s += std::string(" ") + what + "-opacity=\"" + num(c.a / 255.0f) + "\"";
  return s;
}

std::string stroke(Color c, float thickness) {
  return paint("stroke", c) + " stroke-width=\"" + num(thickness) + "\"";
}

std::string points(const std::vector<Vec2>& pts) {
  std::string s;
  for (const Vec2& p : pts) s += (s.empty() ? "" : " ") + num(p.x) + "," + num(p.y);
  return s;
}


}  // namespace

// XML character data: markup characters escaped, control characters XML 1.0 forbids dropped.
std::string xml_escape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char ch : s) {
    switch (ch) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default:
        if ((unsigned char)ch >= 0x20 || ch == '\t') out += ch;
    }
  }
  return out;
}

TextAudit& TextAudit::global() {
  static TextAudit audit;
  return audit;
}

CutTexts& CutTexts::global() {
  static CutTexts cuts;
  return cuts;
}

void CutTexts::note(std::string_view shown, std::string_view whole) {
  // A tooltip's worth: a damaged capture's megabyte-long name is not kept 256 times over (nor copied each frame).
  size_t n = std::min<size_t>(whole.size(), 2000);
  while (n > 0 && n < whole.size() && (static_cast<unsigned char>(whole[n]) & 0xC0) == 0x80) --n;  // whole characters
  std::string kept(whole.substr(0, n));
  if (n < whole.size()) kept += "...";
  for (auto it = cuts_.begin(); it != cuts_.end(); ++it)
    if (it->first == shown) {  // moved to the back: the eviction below drops what was noted longest ago
      cuts_.erase(it);
      break;
    }
  if (cuts_.size() >= 256) cuts_.erase(cuts_.begin(), cuts_.begin() + 128);  // the oldest half: views of past frames
  cuts_.emplace_back(std::string(shown), std::move(kept));
}

const std::string* CutTexts::whole_of(std::string_view shown) const {
  for (auto it = cuts_.rbegin(); it != cuts_.rend(); ++it)
    if (it->first == shown) return &it->second;
  return nullptr;
}

SvgCanvas::SvgCanvas(float width, float height, Color background) : width_(width), height_(height) {
  rect_filled({{0, 0}, {width, height}}, background);
}

void SvgCanvas::rect_filled(Rect r, Color c, float rounding) {
  if (r.w() <= 0 || r.h() <= 0) return;
  body_ += "<rect x=\"" + num(r.min.x) + "\" y=\"" + num(r.min.y) + "\" width=\"" + num(r.w()) +
           "\" height=\"" + num(r.h()) + "\"";
  if (rounding > 0) body_ += " rx=\"" + num(rounding) + "\"";
  body_ += paint("fill", c) + "/>\n";
}

void SvgCanvas::rect(Rect r, Color c, float thickness, float rounding) {
  body_ += "<rect x=\"" + num(r.min.x) + "\" y=\"" + num(r.min.y) + "\" width=\"" + num(r.w()) +
           "\" height=\"" + num(r.h()) + "\"";
  if (rounding > 0) body_ += " rx=\"" + num(rounding) + "\"";
  body_ += " fill=\"none\"" + stroke(c, thickness) + "/>\n";
}

void SvgCanvas::line(Vec2 a, Vec2 b, Color c, float thickness) {
  body_ += "<line x1=\"" + num(a.x) + "\" y1=\"" + num(a.y) + "\" x2=\"" + num(b.x) + "\" y2=\"" +
           num(b.y) + "\"" + stroke(c, thickness) + "/>\n";
}

void SvgCanvas::polyline(const std::vector<Vec2>& pts, Color c, float thickness) {
  if (pts.size() < 2) return;
  body_ += "<polyline points=\"" + points(pts) + "\" fill=\"none\"" + stroke(c, thickness) +
           " stroke-linejoin=\"round\" stroke-linecap=\"round\"/>\n";
}

void SvgCanvas::polygon_filled(const std::vector<Vec2>& pts, Color c) {
  if (pts.size() < 3) return;
  body_ += "<polygon points=\"" + points(pts) + "\"" + paint("fill", c) + "/>\n";
}

void SvgCanvas::circle_filled(Vec2 center, float radius, Color c) {
  body_ += "<circle cx=\"" + num(center.x) + "\" cy=\"" + num(center.y) + "\" r=\"" + num(radius) +
           "\"" + paint("fill", c) + "/>\n";
}

void SvgCanvas::text(Vec2 pos, std::string_view s, Color c, float size, Align align, Font font) {
  if (s.empty()) return;
  TextAudit::global().note(size, s);
  static const char* const kAnchor[] = {"start", "middle", "end"};
  body_ += "<text x=\"" + num(pos.x) + "\" y=\"" + num(pos.y + kAscentPerLine * size) + "\"";
  body_ += font == Font::Mono ? " font-family=\"'DejaVu Sans Mono', 'Bitstream Vera Sans Mono', monospace\""
                              : " font-family=\"'DejaVu Sans', 'Bitstream Vera Sans', sans-serif\"";
  if (font == Font::SansBold) body_ += " font-weight=\"bold\"";
  body_ += " font-size=\"" + num(size * kEmPerLine) + "\"";
  if (align != Align::Left) body_ += std::string(" text-anchor=\"") + kAnchor[int(align)] + "\"";
  // Runs of spaces are part of some labels; XML would collapse them.
  if (s.find("  ") != std::string_view::npos || s.front() == ' ' || s.back() == ' ')
    body_ += " xml:space=\"preserve\"";
  body_ += paint("fill", c) + ">" + xml_escape(s) + "</text>\n";
}

Vec2 SvgCanvas::text_size(std::string_view s, float size, Font font) const {
  float em = 0;
  for (size_t i = 0; i < s.size();) em += advance_em(next_codepoint(s, i), font);
  return {em * kEmPerLine * size, size};
}

void SvgCanvas::push_clip(Rect r) {
  // Nested groups intersect their clip paths, as ImGui's PushClipRect(..., true) does.
  std::string id = "clip" + std::to_string(++clip_ids_);
  body_ += "<defs><clipPath id=\"" + id + "\"><rect x=\"" + num(r.min.x) + "\" y=\"" + num(r.min.y) +
           "\" width=\"" + num(std::max(0.0f, r.w())) + "\" height=\"" + num(std::max(0.0f, r.h())) +
           "\"/></clipPath></defs>\n<g clip-path=\"url(#" + id + ")\">\n";
  ++open_groups_;
}

void SvgCanvas::pop_clip() {
  if (open_groups_ == 0) return;  // unbalanced pop: keep the document well-formed
  body_ += "</g>\n";
  --open_groups_;
}

std::string SvgCanvas::finish() {
  while (open_groups_ > 0) pop_clip();
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
         "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"" + num(width_) +
         "\" height=\"" + num(height_) + "\" viewBox=\"0 0 " + num(width_) + " " + num(height_) +
         "\">\n" + body_ + "</svg>\n";
}

}  // namespace gs
