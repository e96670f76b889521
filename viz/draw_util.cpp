#include "viz/draw_util.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/text.h"

namespace gs::viz {

Color mix(Color a, Color b, float t) {
  auto m = [t](uint8_t x, uint8_t y) { return uint8_t(std::lround(x + (y - x) * t)); };
  return {m(a.r, b.r), m(a.g, b.g), m(a.b, b.b), a.a};
}

Ticks nice_ticks(double lo, double hi, int max_ticks) {
  Ticks t;
  if (!(hi > lo)) hi = lo + 1;
  double raw = (hi - lo) / std::max(1, max_ticks);
  double mag = std::pow(10.0, std::floor(std::log10(raw)));
  double norm = raw / mag;
  // 2.5 only where it stays on whole numbers (250, not 2.5), so labels never grow a decimal.
  bool quarter_ok = mag >= 10;
  t.step = (norm <= 1 ? 1 : norm <= 2 ? 2 : norm <= 2.5 && quarter_ok ? 2.5 : norm <= 5 ? 5 : 10) * mag;
  double first = std::floor(lo / t.step + 1e-9) * t.step;
  int n = int(std::ceil((hi - first) / t.step - 1e-9));
  for (int i = 0; i <= n; ++i) t.values.push_back(first + i * t.step);
  t.max = t.values.back();
  return t;
}

std::string fmt_tflops(double tflops) {
  char buf[32];
  std::snprintf(buf, sizeof buf, std::fabs(tflops) >= 99.95 ? "%.0f" : "%.1f", tflops);
  return buf;
}

std::string fmt_share(double ratio) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", 100.0 * ratio);
  return buf;
}

std::string fmt_num(double v) {
  char buf[32];
  double a = std::fabs(v);
  std::snprintf(buf, sizeof buf, "%.*f", a >= 100 ? 0 : a >= 10 ? 1 : a >= 1 ? 2 : 3, v);
  std::string s = buf;
  if (s.find('.') != std::string::npos) {
    while (s.back() == '0') s.pop_back();
    if (s.back() == '.') s.pop_back();
  }
  return s;
}

std::string fmt_tick(double v, double step) {
  int decimals = std::max(0, int(-std::floor(std::log10(step) + 1e-9)));
  // A step with more digits than its magnitude (2.5 where an axis shows thousands as "k") gets them all: 12.5, not 12.
  for (const int most = decimals + 3; decimals < most; ++decimals) {
    const double scaled = step * std::pow(10.0, decimals);
    if (std::fabs(scaled - std::round(scaled)) <= 1e-6 * std::max(1.0, scaled)) break;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, std::fabs(v) < step * 1e-6 ? 0.0 : v);
  return buf;
}

void dashed_polyline(Canvas& c, const std::vector<Vec2>& pts, Color col, float thickness, float dash, float gap) {
  if (dash <= 0 || gap < 0) {
    c.polyline(pts, col, thickness);
    return;
  }
  float phase = 0;  // distance into the current dash + gap period
  for (size_t i = 1; i < pts.size(); ++i) {
    const Vec2 a = pts[i - 1], d = pts[i] - a;
    const float len = std::sqrt(d.x * d.x + d.y * d.y);
    float s = 0;
    while (s < len) {
      const bool on = phase < dash;
      const float step = std::min(len - s, on ? dash - phase : dash + gap - phase);
      if (on && len > 0) c.line(a + d * (s / len), a + d * ((s + step) / len), col, thickness);
      s += step;
      phase = std::fmod(phase + step, dash + gap);
    }
  }
}

std::string elide(const Canvas& c, std::string_view s, float size, Font font, float max_w) {
  if (c.text_size(s, size, font).x <= max_w) return std::string(s);
  // The longest prefix (whole UTF-8 sequences) that fits with "..." after it, by bisection: a damaged
  // capture's megabyte-long name costs a few dozen measurements, not one per byte.
  auto boundary = [&](size_t n) {  // n moved back to the start of the UTF-8 sequence it falls in
    while (n > 0 && n < s.size() && (static_cast<unsigned char>(s[n]) & 0xC0) == 0x80) --n;
    return n;
  };
  auto fits = [&](size_t n) { return c.text_size(std::string(s.substr(0, n)) + "...", size, font).x <= max_w; };
  size_t lo = 0, hi = s.size();  // fits(lo) or lo == 0; !fits(hi)
  if (!fits(0)) return {};
  while (hi - lo > 1) {
    const size_t mid = boundary(lo + (hi - lo) / 2);
    if (mid <= lo) break;
    (fits(mid) ? lo : hi) = mid;
  }
  std::string shown = std::string(s.substr(0, lo)) + "...";
  CutTexts::global().note(shown, s);
  return shown;
}

std::string paragraph_line(const Canvas& c, const std::string& line, const std::string& paragraph, bool more,
                           float size, float max_w) {
  if (!more) return elide(c, line, size, Font::Sans, max_w);
  std::string shown = elide(c, line + " ...", size, Font::Sans, max_w);
  CutTexts::global().note(shown, paragraph);
  return shown;
}

std::vector<std::string> wrap_lines(const Canvas& c, const std::string& text, float size, float max_w,
                                    size_t max_lines) {
  std::vector<std::string> lines = wrap(c, text, size, max_w);
  max_lines = std::max<size_t>(1, max_lines);
  if (lines.size() > max_lines) {
    // The next line's words joined on make the last too wide for max_w, so elide() always marks the cut.
    lines[max_lines - 1] = elide(c, lines[max_lines - 1] + " " + lines[max_lines], size, Font::Sans, max_w);
    lines.resize(max_lines);
    CutTexts::global().note(lines.back(), text);  // the hover shows the whole paragraph, not two lines of it
  }
  return lines;
}

void centered_message(Canvas& c, Rect r, const std::string& text, Color ink, float size) {
  const Rect area = r.inset(std::max(6.0f, size * 0.7f));
  float y = r.center().y - size;
  for (const std::string& line : wrap(c, text, size, area.w())) {
    c.text({r.center().x, y}, elide(c, line, size, Font::Sans, area.w()), ink, size, Align::Center);
    y += size * 1.3f;
  }
}

std::vector<std::string> wrap(const Canvas& c, const std::string& text, float size, float max_w, Font font) {
  std::vector<std::string> lines;
  std::string line;
  size_t i = 0;
  while (i < text.size()) {
    size_t sp = text.find(' ', i);
    std::string word = text.substr(i, sp == std::string::npos ? std::string::npos : sp - i);
    i = sp == std::string::npos ? text.size() : sp + 1;
    std::string longer = line.empty() ? word : line + " " + word;
    if (!line.empty() && c.text_size(longer, size, font).x > max_w) {
      lines.push_back(line);
      line = word;
    } else {
      line = longer;
    }
  }
  if (!line.empty()) lines.push_back(line);
  return lines;
}

float fit_size(const Canvas& c, std::string_view s, float size, float min_size, Font font, float max_w) {
  float w = c.text_size(s, size, font).x;
  if (w <= max_w) return size;
  float fitted = std::floor(size * max_w / w * 2) / 2;  // half-pixel steps keep sizes tidy
  return fitted >= min_size ? fitted : 0;
}

}  // namespace gs::viz

namespace gs::viz {

float spans_width(const Canvas& c, const std::vector<Span>& spans, float size) {
  float w = 0;
  for (const Span& s : spans) w += c.text_size(s.text, size, s.font).x;
  return w;
}

void draw_spans(Canvas& c, Vec2 pos, const std::vector<Span>& spans, float size, float max_w) {
  float x = pos.x, right = pos.x + max_w;
  for (const Span& s : spans) {
    std::string t = elide(c, s.text, size, s.font, right - x);
    if (t.empty()) break;
    c.text({x, pos.y}, t, s.color, size, Align::Left, s.font);
    x += c.text_size(t, size, s.font).x;
    if (t.size() != s.text.size()) break;
  }
}

const std::string& title_kernel(const std::string& traced, const std::string& shown_as) {
  return shown_as.empty() ? traced : shown_as;
}

std::string traced_as_note(const std::string& traced, const std::string& shown_as) {
  if (shown_as.empty() || shown_as == traced) return "";
  return " \xC2\xB7 its rung's traces (an order moves whole blocks, not their accesses)";
}

std::string traced_scope(std::vector<int> warps, std::vector<int> iters) {
  for (std::vector<int>* v : {&warps, &iters}) {
    std::sort(v->begin(), v->end());
    v->erase(std::unique(v->begin(), v->end()), v->end());
  }
  auto list = [](const std::vector<int>& v) {
    std::vector<std::string> names;
    for (const int i : v) names.push_back(std::to_string(i));
    return join_list(names, "and");
  };
  const bool epilogue = !iters.empty() && iters.front() < 0;  // -1: past the k-loop
  if (epilogue) iters.erase(iters.begin());
  // The probe counts what a warp does before its k-loop (a pipeline's prologue copies) in k-iteration 0, so the
  // scope says where that count starts: sgemm/09's 16 A copies "in k-iteration 0" are the prologue's 3 tiles and
  // iteration 0's one.
  std::string when = iters.empty() ? "" : (iters.size() == 1 ? "k-iteration " : "k-iterations ") + list(iters);
  if (!iters.empty() && iters.front() == 0) when += " (counted from the block's start)";
  if (epilogue) when += when.empty() ? "the epilogue" : " and the epilogue";
  return std::string(warps.size() == 1 ? "warp " : "warps ") + list(warps) + (when.empty() ? "" : ", " + when);
}

namespace {
thread_local bool g_picture = false;    // a PictureScope is drawing a picture on this thread
thread_local bool g_maximised = false;  // a MaximisedScope: the window draws a maximised view
}  // namespace

PictureScope::PictureScope() : was_(g_picture) { g_picture = true; }
PictureScope::~PictureScope() { g_picture = was_; }
bool in_picture() { return g_picture; }

MaximisedScope::MaximisedScope(bool on) : was_(g_maximised) { g_maximised = g_maximised || on; }
MaximisedScope::~MaximisedScope() { g_maximised = was_; }

std::string hint(const std::string& on_screen, const std::string& in_picture) {
  if (g_picture) return in_picture;
  if (!g_maximised) return on_screen;
  std::string s = on_screen;
  const auto replace = [&](const std::string& from, const std::string& to) {
    if (const size_t at = s.find(from); at != std::string::npos) s.replace(at, from.size(), to);
  };
  replace(", maximise or", " or");  // "zoom out, maximise or pick one to scroll"
  for (const char* m : {"maximise this view (M)", "maximise this view", "maximise"})
    if (s.find(m) != std::string::npos) {
      replace(m, "zoom out (Ctrl -)");
      break;
    }
  return s;
}

std::string maximise_hint() { return hint("maximise this view", "a larger picture shows it"); }

}  // namespace gs::viz
