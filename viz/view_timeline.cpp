// Pipeline timeline: one sampled block's warps over clock64, each warp's stages as the rung's probe calls
// name them, so what overlaps is visible: with one stage of shared memory the warps wait, then compute,
// then wait again; with cp.async stages in flight the waits shrink to slivers between the math. The rung
// before sits below on the same cycle scale.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "core/capture_limits.h"
#include "viz/draw_util.h"
#include "viz/views.h"

namespace gs {
namespace {

bool has(const std::string& s, const char* word) {
  std::string lower = s;
  for (char& ch : lower) ch = char(std::tolower(static_cast<unsigned char>(ch)));
  return lower.find(word) != std::string::npos;
}

// What a stage does, read from its name: waits amber, math green, copies blue, the epilogue grey.
Color stage_color(const std::string& name, int index, const Theme& t) {
  if (has(name, "wait") || has(name, "barrier")) return t.warn;
  if (has(name, "epilogue")) return viz::mix(t.text_dim, t.bg, 0.2f);
  if (has(name, "mma") || has(name, "compute") || has(name, "k-loop") || has(name, "ffma")) return t.good;
  if (has(name, "load") || has(name, "copy") || has(name, "tma") || has(name, "issue") || has(name, "prologue"))
    return t.accent;
  return series_color(size_t(index) + 3, t);
}

// The stages' colours, by name and in legend order (the selected rung's stages, then those only the rung below
// has): each its kind's colour (stage_color), except that where two stages share a kind, as hopper's producer
// waits for an empty stage and its consumers for a full one, the second is lighter (toward the text colour) and a
// third darker (toward the background), so that the legend tells them apart. A name has one colour in both rungs.
struct Palette {
  std::vector<std::pair<std::string, Color>> entries;
  Color of(const std::string& name) const {
    for (const auto& [n, col] : entries)
      if (n == name) return col;
    return Color{};
  }
};

Palette stage_palette(const TimelineBlock& in, const TimelineBlock* other, const Theme& t) {
  std::vector<std::string> names;  // legend order
  for (const TimelineBlock* b : {&in, other})
    if (b)
      for (const std::string& name : b->stages)
        if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  // A wait for an empty stage (the producer's) is always its kind's second shade, so that "wait full" and "wait
  // empty" keep their colours from rung to rung (hopper/04 listed them in the other order and swapped them); the
  // other stages take their kind's shades in legend order.
  const auto preferred = [](const std::string& name) { return has(name, "wait") && has(name, "empty") ? 1 : -1; };
  std::vector<Color> base(names.size());
  std::vector<int> shade(names.size(), -1);
  std::vector<std::pair<Color, std::vector<int>>> taken;  // each kind's colour and the shades it has given out
  const auto kind_of = [&](Color c) -> std::vector<int>& {
    auto k = std::find_if(taken.begin(), taken.end(),
                          [&](const auto& e) { return e.first.r == c.r && e.first.g == c.g && e.first.b == c.b; });
    if (k == taken.end()) k = taken.insert(taken.end(), {c, {}});
    return k->second;
  };
  for (size_t i = 0; i < names.size(); ++i) {
    base[i] = stage_color(names[i], int(i), t);
    if (preferred(names[i]) >= 0) {
      std::vector<int>& used = kind_of(base[i]);
      if (std::find(used.begin(), used.end(), preferred(names[i])) == used.end()) {
        shade[i] = preferred(names[i]);
        used.push_back(shade[i]);
      }
    }
  }
  for (size_t i = 0; i < names.size(); ++i) {
    if (shade[i] >= 0) continue;
    std::vector<int>& used = kind_of(base[i]);
    int s = 0;
    while (std::find(used.begin(), used.end(), s) != used.end()) ++s;
    shade[i] = s;
    used.push_back(s);
  }
  Palette p;
  for (size_t i = 0; i < names.size(); ++i)
    p.entries.push_back({names[i], shade[i] == 0   ? base[i]
                                   : shade[i] == 1 ? viz::mix(base[i], t.text, 0.45f)
                                   : shade[i] == 2 ? viz::mix(base[i], t.bg, 0.45f)
                                                   : series_color(i + 3, t)});
  return p;
}

// Marks: a barrier in the text colour, a cp.async wait in the colour of trouble (it is where copies are late).
Color mark_color(const std::string& name, const Theme& t) { return has(name, "cp.async") ? t.bad : t.text; }

// probe.tile()'s mark (kernels/probe.cuh kMarkNames): a persistent kernel's warp starting its next tile.
constexpr const char* kTileMark = "next tile";

// The legend's words for a mark: the warp passed a barrier or a wait, or moved on to its next tile.
std::string mark_label(const std::string& name) { return (name == kTileMark ? "on to the " : "passed ") + name; }

// Which of b's marks are drawn: all but each warp's first "next tile", which probe.tile() stamps as the warp starts
// its first tile, where nothing was handed over yet (it had ticked the start of every row of hopper/04).
std::vector<bool> drawn_marks(const TimelineBlock& b) {
  std::vector<bool> drawn(b.marks.size(), true);
  std::map<int, size_t> first;  // per warp: its earliest tile mark
  for (size_t i = 0; i < b.marks.size(); ++i) {
    const TimelineBlock::Mark& m = b.marks[i];
    if (b.mark_names[size_t(m.kind)] != kTileMark) continue;
    const auto it = first.find(m.warp);
    if (it == first.end() || m.at < b.marks[it->second].at) first[m.warp] = i;
  }
  for (const auto& [warp, i] : first) drawn[i] = false;
  return drawn;
}

// The index of `name` in `names`, appended if it is not there yet (names keep the order first seen).
int index_in(std::vector<std::string>* names, const std::string& name) {
  auto it = std::find(names->begin(), names->end(), name);
  if (it == names->end()) it = names->insert(names->end(), name);
  return int(it - names->begin());
}

// The unit a cycle count is written in: millions from 1M, thousands from 10k, else cycles.
struct CycleUnit {
  double size;
  const char* suffix;
};
CycleUnit cycle_unit(double c) {
  return c >= 1e6 ? CycleUnit{1e6, "M"} : c >= 1e4 ? CycleUnit{1e3, "k"} : CycleUnit{1, ""};
}

std::string cycles(double c) {
  const CycleUnit u = cycle_unit(c);
  char buf[32];
  std::snprintf(buf, sizeof buf, u.size == 1e6 ? "%.2f%s" : "%.0f%s", c / u.size, u.suffix);
  return buf;
}

// An axis label: cycles() with as many decimals as the tick step needs, so that ticks 2,500 apart read 10.0k, 12.5k,
// 15.0k (not 10k, 12k, 15k).
// One unit for the whole axis, the largest tick's: "9k, 10k", not "9000, 10k".
std::string tick_cycles(double c, double step, double axis_max) {
  if (c == 0) return "0";
  const CycleUnit u = cycle_unit(axis_max);
  return viz::fmt_tick(c / u.size, step / u.size) + u.suffix;
}

// What a persistent CTA computed: "4 tiles", or "1 tile, then 1 piece of a tile split along k".
std::string cta_work(const TimelineBlock& b) {
  const auto n = [](int count, const char* one, const char* many) {
    return std::to_string(count) + " " + (count == 1 ? one : many);
  };
  if (b.pieces == 0) return n(b.tiles, "tile", "tiles");
  const std::string split = n(b.pieces, "piece", "pieces") + (b.pieces == 1 ? " of a tile" : " of tiles") + " split along k";
  return b.tiles == 0 ? split : n(b.tiles, "tile", "tiles") + ", then " + split;
}

// A block with no stage spans to draw: the rung was not traced in this capture.
bool nothing_recorded(const TimelineBlock& b) { return b.block < 0 || b.warps.empty(); }

// One block's rows in `r` over [t0, t1); returns the plot rect.
// `drawn`: drawn_marks(b), which the legend reads too.
Rect draw_block(Canvas& c, Rect r, const Theme& t, const Palette& palette, const TimelineBlock& b,
                const std::vector<bool>& drawn, double t0, double t1, float fs, Vec2 mouse, int side, bool with_shape,
                TimelineHover* hover, bool on_focus = false) {
  const float label_w = c.text_size("warp 31", fs).x + fs * 0.6f;
  std::vector<viz::Span> head{{viz::title_kernel(b.kernel, b.shown_as), t.text, Font::SansBold}};
  // Two blocks traced at different sizes (mma_f16/13 at 5120x1280x4096 over rung 12 at 4096^3): their cycles and
  // k-steps are not one problem's, and each says which it is.
  if (with_shape && !b.shape.empty()) head.push_back({" at " + b.shape, t.warn, Font::Sans});
  // A rung whose change is outside its k-loop opens there, and says so first ("first k-tiles" goes back).
  if (on_focus) head.push_back({"   shown: its first " + b.focus + ", where this rung changes;", t.warn, Font::Sans});
  if (!b.shown_as.empty() && b.shown_as != b.kernel)  // an order variant: its rung's stamps (the order moves whole blocks)
    head.push_back({"   the stamps of " + b.kernel + ";", t.text_dim, Font::Sans});
  if (b.block >= 0)
    head.push_back({(b.tiles + b.pieces > 0 ? (b.pieces > 0 ? "   CTA " : "   persistent CTA ") + std::to_string(b.block) +
                                                  " (" + cta_work(b) + ")"
                                            : "   block " + std::to_string(b.block)) +
                        ", " + std::to_string(b.warps.size()) + " warps stamped, " +
                        (b.cut ? "the first " : "") + cycles(double(b.duration)) + " cycles" +
                        (b.loop_steps > 1 ? ", " + std::to_string(b.loop_steps) + " k-tiles" : "") +
                        // Said for every launch the capture timed, so that two blocks read side by side compare
                        // (hopper/03 said nothing beside 02's "1.15x"); before the clauses a narrow header may cut
                        // (a deck's picture lost "1.12x" to "1....", with no mouse to show it whole).
                        // (The blocks' span leaves the launch's overhead out, so it can read below 1.)
                        (b.slowdown > 1.05    ? "; the probes slowed this launch " + viz::fmt_num(b.slowdown) + "x"
                         : b.slowdown >= 0.95 ? "; within 5% of its timed run"
                         : b.slowdown > 0     ? "; its blocks took " + viz::fmt_num(b.slowdown) + "x its timed run"
                                              : "") +
                        // Blocks sharing an SM share its issue slots: a block among 4 runs longer than one
                        // among 3 at the same throughput (mma_tf32/03's 3.95M cycles over 02's 2.76M).
                        (b.per_sm > 1 ? "; up to " + std::to_string(b.per_sm) +
                                            (b.tiles + b.pieces > 0 ? " CTAs" : " blocks") + " shared an SM"
                                      : "") +
                        (b.cut ? "; a capture keeps " + std::to_string(kCaptureStageWarpRecords) +
                                     " stamps a warp, " + std::to_string(kCaptureStageRecords) + " a rung"
                               : ""),
                    t.text_dim, Font::Sans});
  // In a picture, where a cut header cannot be hovered whole, one wider than the block takes two lines: the rung's
  // name and what fits whole beside it, then the rest (a deck at 150% had cut "...; up to 2 blocks shared an SM").
  float head_h = fs * 1.5f;
  if (viz::in_picture() && head.size() > 1 && viz::spans_width(c, head, fs) > r.w() && r.h() > fs * 12) {
    size_t first = 1;
    while (first < head.size() && viz::spans_width(c, {head.begin(), head.begin() + long(first) + 1}, fs) <= r.w()) ++first;
    std::vector<viz::Span> rest(head.begin() + long(first), head.end());
    rest[0].text.erase(0, rest[0].text.find_first_not_of(' '));
    viz::draw_spans(c, r.min, {head.begin(), head.begin() + long(first)}, fs, r.w());
    viz::draw_spans(c, {r.min.x, r.min.y + fs * 1.3f}, rest, fs, r.w());
    head_h = fs * 2.8f;
  } else {
    viz::draw_spans(c, r.min, head, fs, r.w());
  }
  const Rect plot{{r.min.x + label_w, r.min.y + head_h}, r.max};
  if (nothing_recorded(b)) {
    c.text({r.min.x, plot.min.y}, "no stage spans recorded for this rung in this capture", t.text_dim, fs);
    return plot;
  }
  const float rh = plot.h() / float(b.warps.size());
  const double span = std::max(1.0, t1 - t0);
  auto X = [&](double v) { return float(plot.min.x + plot.w() * (v - t0) / span); };
  c.rect_filled(plot, t.panel);
  // Row labels where they fit (every few rows otherwise).
  const int step = std::max(1, int(std::ceil(fs * 1.15f / rh)));
  for (size_t i = 0; i < b.warps.size(); i += size_t(step))
    c.text({plot.min.x - fs * 0.3f, plot.min.y + (i + 0.5f) * rh - fs * 0.5f}, "warp " + std::to_string(b.warps[i]),
           t.text_dim, fs, Align::Right);
  std::map<int, size_t> row_of;
  for (size_t i = 0; i < b.warps.size(); ++i) row_of[b.warps[i]] = i;
  c.push_clip(plot);
  const float gap = rh > 6 ? std::max(1.0f, rh * 0.12f) : 0;
  for (size_t i = 0; i < b.spans.size(); ++i) {
    const TimelineBlock::Span& s = b.spans[i];
    if (double(s.end) < t0 || double(s.start) > t1) continue;
    const float y = plot.min.y + row_of[s.warp] * rh;
    const Rect bar{{X(double(s.start)), y + gap}, {std::max(X(double(s.end)), X(double(s.start)) + 1), y + rh - gap}};
    c.rect_filled(bar, palette.of(b.stages[size_t(s.stage)]));
    if (bar.w() > 5) c.line({bar.max.x, bar.min.y}, {bar.max.x, bar.max.y}, t.bg, 1);  // where the next stage begins
    if (hover && bar.contains(mouse)) hover->side = side, hover->span = int(i);
  }
  // Marks over the spans: a tick the height of the row where the warp passed a barrier or a cp.async wait, or
  // moved on to its next tile.
  for (size_t i = 0; i < b.marks.size(); ++i) {
    const TimelineBlock::Mark& m = b.marks[i];
    if (!drawn[i] || double(m.at) < t0 || double(m.at) > t1) continue;
    const float y = plot.min.y + row_of[m.warp] * rh, x = X(double(m.at));
    c.line({x, y + gap * 0.5f}, {x, y + rh - gap * 0.5f}, mark_color(b.mark_names[size_t(m.kind)], t), rh > 6 ? 2.0f : 1.0f);
  }
  c.pop_clip();
  return plot;
}

}  // namespace

TimelineBlock timeline_block(const Capture& c, const std::string& kernel, int pick) {
  TimelineBlock b;
  b.kernel = kernel;
  // The sampled blocks; and, for the capture's limits below, the rung's stamps and the block of its last one.
  std::vector<int> blocks;
  size_t total = 0;
  int last_block = -1;
  for (const StageRecord& s : c.stages) {
    if (s.kernel != kernel) continue;
    ++total;
    last_block = s.block;
    if (std::find(blocks.begin(), blocks.end(), s.block) == blocks.end()) blocks.push_back(s.block);
  }
  if (blocks.empty()) return b;
  std::sort(blocks.begin(), blocks.end());
  b.block = blocks[size_t(std::clamp(pick, 0, int(blocks.size()) - 1))];
  uint64_t first = UINT64_MAX;
  for (const StageRecord& s : c.stages)
    if (s.kernel == kernel && s.block == b.block) first = std::min(first, s.start);
  std::map<int, int> per_stage_warp0;
  std::map<int, size_t> per_warp;  // stamps (spans and marks) of each warp of the block
  for (const StageRecord& s : c.stages) {
    if (s.kernel != kernel || s.block != b.block) continue;
    if (per_warp[s.warp]++ == 0) b.warps.push_back(s.warp);
    if (is_mark(s)) {
      const std::string name = s.stage.substr(std::string(kMarkPrefix).size());
      b.marks.push_back({s.warp, index_in(&b.mark_names, name), s.start - first});
      continue;
    }
    TimelineBlock::Span span;
    span.warp = s.warp;
    span.stage = index_in(&b.stages, s.stage);
    span.start = s.start - first;
    span.end = std::max(s.end, s.start) - first;
    b.spans.push_back(span);
    b.duration = std::max(b.duration, span.end);
  }
  std::sort(b.warps.begin(), b.warps.end());
  for (const TimelineBlock::Span& s : b.spans)
    if (s.warp == b.warps.front()) ++per_stage_warp0[s.stage];
  int waits = 0;
  for (const auto& [stage, n] : per_stage_warp0) {
    b.loop_steps = std::max(b.loop_steps, n);
    if (has(b.stages[size_t(stage)], "wait")) waits = std::max(waits, n);
  }
  if (waits > 1) b.loop_steps = waits;
  // Cut short by the capture's limits (kernels/record.cpp keeps stamps in block and warp order): a warp of this
  // block at the per-warp limit, or the rung at its total with the last stamp kept in this block (that warp's
  // row ends early and later warps have none).
  b.cut = total >= kCaptureStageRecords && last_block == b.block;
  for (const auto& [warp, n] : per_warp) b.cut = b.cut || n >= kCaptureStageWarpRecords;
  // Block records this CTA wrote: one per tile for a persistent kernel (probe.tile()), one per piece where a tile
  // is split along k among CTAs (stream-K: a tile with records from several CTAs).
  std::map<std::pair<int, int>, int> records;  // per tile
  for (const BlockRecord& r : c.blocks)
    if (r.kernel == kernel) ++records[{r.tile_m, r.tile_n}];
  int own = 0, pieces = 0;
  for (const BlockRecord& r : c.blocks)
    if (r.kernel == kernel && r.bx == b.block && r.by == 0) ++(records[{r.tile_m, r.tile_n}] > 1 ? pieces : own);
  if (own > 1 || pieces > 0) b.tiles = own, b.pieces = pieces;
  return b;
}

int timeline_blocks(const Capture& c, const std::string& kernel) {
  std::vector<int> blocks;
  for (const StageRecord& s : c.stages)
    if (s.kernel == kernel && std::find(blocks.begin(), blocks.end(), s.block) == blocks.end()) blocks.push_back(s.block);
  return int(blocks.size());
}

void timeline_window(const TimelineBlock& b, const TimelineViewState& st, double* t0, double* t1,
                     const TimelineBlock* below) {
  if (st.t1 > st.t0 && st.t1 > 0) {
    *t0 = st.t0, *t1 = st.t1;
    return;
  }
  // The first dozen k-steps: enough to see the pattern repeat, few enough to see each step. A step is a
  // run of the stage the first warp enters most often; the window ends where its 13th run starts.
  std::map<int, std::vector<uint64_t>> starts;
  for (const TimelineBlock::Span& s : b.spans)
    if (!b.warps.empty() && s.warp == b.warps.front()) starts[s.stage].push_back(s.start);
  const std::vector<uint64_t>* loop = nullptr;
  for (const auto& [stage, v] : starts)
    if (!loop || v.size() > loop->size()) loop = &v;
  *t0 = 0;
  // No dozen steps to open on: the whole of both blocks (a faster block's end had cut a slower one below it).
  *t1 = double(std::max<uint64_t>({1, b.duration, below ? below->duration : 0}));
  if (loop && loop->size() > 13) {
    std::vector<uint64_t> sorted = *loop;
    std::sort(sorted.begin(), sorted.end());
    *t1 = double(std::max<uint64_t>(1, sorted[12]));
  }
}

bool focus_window(const TimelineBlock& b, const TimelineBlock* below, double* t0, double* t1) {
  if (b.focus.empty()) return false;
  uint64_t lo = UINT64_MAX, hi = 0;
  for (const TimelineBlock* x : {&b, below}) {
    if (!x) continue;
    const auto it = std::find(x->stages.begin(), x->stages.end(), b.focus);
    if (it == x->stages.end()) {  // (a stage is listed only where a span has it)
      if (x == &b) return false;  // nothing of the focus in the selected rung: the rung below alone decides nothing
      continue;
    }
    const int stage = int(it - x->stages.begin());
    std::map<int, const TimelineBlock::Span*> first;  // each warp's earliest run of the stage
    for (const TimelineBlock::Span& s : x->spans)
      if (s.stage == stage && (!first.count(s.warp) || s.start < first[s.warp]->start)) first[s.warp] = &s;
    for (const auto& [warp, s] : first) lo = std::min(lo, s->start), hi = std::max(hi, s->end);
  }
  if (hi <= lo) return false;
  const double pad = 1.5 * double(hi - lo);
  *t0 = std::max(0.0, double(lo) - pad);
  *t1 = double(hi) + pad;
  return true;
}

void draw_timeline_view(Canvas& c, Rect r, const Theme& t, const TimelineBlock& in, const TimelineBlock* other,
                        double clock_mhz, const TimelineViewState& st, Vec2 mouse, TimelineHover* hover) {
  if (hover) *hover = TimelineHover{};
  c.push_clip(r);
  const float fs = std::clamp(std::min(r.w() / 70.0f, r.h() / 36.0f), kMinTextSize, 17.0f);
  const Rect area = r.inset(std::max(6.0f, fs * 0.6f));
  double t0 = 0, t1 = 1;
  // The window of the selected rung's block; where it has no spans, the one below sets the scale.
  timeline_window(in.spans.empty() && other && !other->spans.empty() ? *other : in, st, &t0, &t1, other);
  // Legend: the stages of both rungs, each once, in their colours.
  const Palette palette = stage_palette(in, other, t);
  // Then the marks drawn, each once, as the tick they are drawn with.
  const std::vector<bool> drawn_in = drawn_marks(in), drawn_other = other ? drawn_marks(*other) : std::vector<bool>{};
  std::vector<std::string> marks;
  for (const auto& [b, drawn] : {std::pair{&in, &drawn_in}, std::pair{other, &drawn_other}}) {
    if (!b) continue;
    for (size_t i = 0; i < b->marks.size(); ++i)
      if ((*drawn)[i]) index_in(&marks, b->mark_names[size_t(b->marks[i].kind)]);
  }
  float x = area.min.x, y = area.min.y;
  auto room = [&](float w) {
    if (x + w > area.max.x && x > area.min.x) x = area.min.x, y += fs * 1.4f;
  };
  for (const auto& [name, col] : palette.entries) {
    const float w = fs * 1.6f + c.text_size(name, fs).x + fs;
    room(w);
    c.rect_filled({{x, y + fs * 0.2f}, {x + fs * 1.2f, y + fs * 0.8f}}, col, 2);
    c.text({x + fs * 1.6f, y}, name, t.text_dim, fs);
    x += w;
  }
  for (const std::string& name : marks) {
    const std::string label = mark_label(name);
    const float w = fs * 1.0f + c.text_size(label, fs).x + fs;
    room(w);
    c.line({x + fs * 0.3f, y + fs * 0.05f}, {x + fs * 0.3f, y + fs * 0.95f}, mark_color(name, t), 2);
    c.text({x + fs * 1.0f, y}, label, t.text_dim, fs);
    x += w;
  }
  y += fs * 1.6f;
  // The whole block at a glance with the window marked, then the window itself, then the axis.
  const float axis_h = fs * 2.8f;
  const Rect overview{{area.min.x, y}, {area.max.x, y + fs * 0.9f}};
  if (in.duration > 0) {
    c.rect_filled(overview, t.panel, 2);
    for (const TimelineBlock::Span& s : in.spans) {
      if (s.warp != in.warps.front()) continue;
      const float a = overview.min.x + overview.w() * float(double(s.start) / double(in.duration));
      const float e = overview.min.x + overview.w() * float(double(s.end) / double(in.duration));
      c.rect_filled({{a, overview.min.y}, {std::max(e, a + 0.5f), overview.max.y}}, palette.of(in.stages[size_t(s.stage)]));
    }
    const float w0 = overview.min.x + overview.w() * float(std::clamp(t0 / double(in.duration), 0.0, 1.0));
    const float w1 = overview.min.x + overview.w() * float(std::clamp(t1 / double(in.duration), 0.0, 1.0));
    c.rect({{w0, overview.min.y - 2}, {std::max(w1, w0 + 2), overview.max.y + 2}}, t.text, 2);
  }
  if (in.duration > 0) y = overview.max.y + fs * 0.8f;  // no overview where the rung has no block recorded
  bool two = other != nullptr;
  const float avail = area.max.y - axis_h - y - (two ? fs * 0.8f : 0);
  // Too small a pane for a second block (under about three lines each): it says so in one line, under the axis,
  // instead of being drawn over the first.
  const bool squeezed = two && avail < fs * 7.5f;
  if (squeezed) two = false;
  // Two blocks share the height; one with nothing recorded needs two lines (its name, then why), and the other
  // takes the rest (on a small pane an even split put the second block's title over the first one's line).
  float h_in = two ? avail / 2 : avail - (squeezed ? fs * 1.6f : 0), h_other = h_in;
  if (two && nothing_recorded(in) != nothing_recorded(*other)) {
    float& short_h = nothing_recorded(in) ? h_in : h_other;
    short_h = std::min(short_h, fs * 2.8f);
    (nothing_recorded(in) ? h_other : h_in) = avail - short_h;
  }
  // Too small for the block's title, a row of warps and the axis (the whole window's pane at 1600x900 with the
  // rung below squeezed out): one line says so, where the title would have been drawn over the rows.
  if (h_in < fs * 2.2f) {
    if (y + fs <= area.max.y) {
      std::vector<viz::Span> line{{in.kernel, t.text_dim, Font::Sans}};
      if (other && !in.shape.empty() && in.shape != other->shape) line.push_back({" at " + in.shape, t.warn, Font::Sans});
      line.push_back({": " + viz::hint("maximise to see its warps", "a larger picture shows its warps"), t.text_dim, Font::Sans});
      viz::draw_spans(c, {area.min.x, y}, line, fs, area.w());
    }
    c.pop_clip();
    return;
  }
  if (squeezed)  // under the axis, where the second block would have been
    c.text({area.min.x, area.max.y - fs * 1.2f},
           viz::elide(c, "below: " + other->kernel + ": " + viz::hint("maximise to compare", "a larger picture shows it"), fs, Font::Sans, area.w()), t.text_dim,
           fs);
  const Rect top{{area.min.x, y}, {area.max.x, y + h_in}};
  const bool shapes = two && in.shape != other->shape;
  const bool on_focus = st.on_focus && !in.focus.empty() && !nothing_recorded(in);
  const Rect plot = draw_block(c, top, t, palette, in, drawn_in, t0, t1, fs, mouse, 0, shapes, hover, on_focus);
  Rect bottom_plot = plot;
  if (two) {
    const Rect below{{area.min.x, top.max.y + fs * 0.8f}, {area.max.x, top.max.y + fs * 0.8f + h_other}};
    bottom_plot = draw_block(c, below, t, palette, *other, drawn_other, t0, t1, fs, mouse, 1, shapes, hover);
  }
  // Axis under the last plot: cycles, and microseconds at the clock the capture records.
  const viz::Ticks ticks = viz::nice_ticks(t0, t1, std::max(2, int(plot.w() / (fs * 6))));
  double axis_max = 0;
  for (double v : ticks.values)
    if (v >= t0 && v <= t1) axis_max = std::max(axis_max, v);
  for (double v : ticks.values) {
    if (v < t0 || v > t1) continue;
    const float px = float(plot.min.x + plot.w() * (v - t0) / std::max(1.0, t1 - t0));
    c.line({px, bottom_plot.max.y}, {px, bottom_plot.max.y + fs * 0.3f}, t.text_dim, 1);
    c.text({px, bottom_plot.max.y + fs * 0.35f}, tick_cycles(v, ticks.step, axis_max), t.text_dim, fs, Align::Center);
  }
  std::string unit = "cycles of the SM";
  if (clock_mhz > 0) {
    // The capture records the GPU's top clock, not the one the traced launch ran at (a loaded GPU runs below it):
    // the time is what these cycles take at that top clock, and says so.
    char buf[128];
    std::snprintf(buf, sizeof buf, " (%.1f \xC2\xB5s at the top clock, %.0f MHz; longer if it ran slower)",
                  (t1 - t0) / clock_mhz, clock_mhz);
    // A narrow plot keeps the time and its clock, the caveat left to the hover's words.
    if (c.text_size(unit + buf, fs).x > plot.w())
      std::snprintf(buf, sizeof buf, " (%.1f \xC2\xB5s at %.0f MHz, the top clock)", (t1 - t0) / clock_mhz, clock_mhz);
    unit += buf;
  }
  c.text({plot.max.x, bottom_plot.max.y + fs * 1.5f}, unit, t.text_dim, fs, Align::Right);
  if (hover) hover->plot = plot, hover->t0 = t0, hover->t1 = t1;
  c.pop_clip();
}

}  // namespace gs
