// Shared-memory bank view: which of a kernel's shared-memory accesses conflict, and for one of them
// the picture the bank rules make (core/banks.h):
//   site table      kind, bytes per lane, and W / I / C summed over every recorded execution
//   caption         the selected access in words
//   bank grid       32 columns, one per bank; one row per wavefront; each cell the word that bank reads
//                   in that wavefront, coloured and labelled by the lane that asked for it. A conflict is
//                   a row beyond what the phase's bytes need, marked in warn/bad beside the row.
//   lane strip      each lane's byte offset and bank
#include <algorithm>
#include <array>
#include <map>
#include <set>
#include <string>

#include "core/variant.h"
#include "viz/draw_util.h"
#include "viz/views.h"

namespace gs {
namespace {

// The measured price of a `width`-byte load that takes `wavefronts` wavefronts: the table's row (lanes
// stride_bytes apart) whose access the model gives that many, with the most warps; null when none does.
const SmemPrice* price_with(const std::vector<SmemPrice>& table, int width, int wavefronts) {
  const SmemPrice* best = nullptr;
  for (const SmemPrice& p : table) {
    if (p.width != width || (best && p.warps <= best->warps)) continue;
    LaneOffsets off;
    for (int lane = 0; lane < 32; ++lane) off[size_t(lane)] = uint32_t(lane * p.stride_bytes);
    if (bank_report(off, width, SmemOp::Lds).wavefronts == wavefronts) best = &p;
  }
  return best;
}

using viz::Span;

std::string plural(int n, const char* one, const char* many) { return std::to_string(n) + " " + (n == 1 ? one : many); }

// "0-3, 8-11, 17": ascending integers as runs.
std::string ranges(const std::vector<int>& v) {
  std::string s;
  for (size_t i = 0; i < v.size();) {
    size_t j = i;
    while (j + 1 < v.size() && v[j + 1] == v[j] + 1) ++j;
    s += (s.empty() ? "" : ", ") + std::to_string(v[i]) + (j > i ? "-" + std::to_string(v[j]) : "");
    i = j + 1;
  }
  return s;
}

// One severity scale for the whole view: conflict-free, 2-way, worse.
Color way_color(int way, const Theme& t) { return way <= 1 ? t.good : way == 2 ? t.warn : t.bad; }

// One execution of the site in words: "8-byte loads, packed: 1 phase of 32 lanes", "ldmatrix.x4 (4 8x8
// matrices, one phase each)". The phases are the access's own (core/banks.h: packing depends on it).
std::string access_words(const SmemSite& s, const BankReport& r) {
  if (is_ldmatrix(s.op)) {
    const int m = ldmatrix_matrices(s.op);
    return site_instruction(s) + " (" + plural(m, "8x8 matrix", "8x8 matrices") + ", one phase each)";
  }
  std::string w = std::to_string(s.width) + "-byte ";
  w += s.op == SmemOp::Lds ? "loads" : s.op == SmemOp::Sts ? "stores" : "cp.async writes";
  const int phases = kSmemBanks / std::max(1, r.phase_lanes);
  if (phases > 1 || r.packed)
    w += std::string(r.packed ? ", packed: " : " in ") + plural(phases, "phase", "phases") + " of " +
         std::to_string(r.phase_lanes) + " lanes";
  return w;
}

// Lanes [first, first + count) as "lanes 8-15".
std::string lane_range(int first, int count) {
  return "lanes " + std::to_string(first) + "-" + std::to_string(first + count - 1);
}

// Per phase of a report: the wavefronts Nsight Compute counts as its ideal (one; cp.async: banks.cpp) and
// its busiest bank's word count. Rows of a phase past its need are its conflicts.
struct PhaseInfo {
  int first_row = 0, rows = 0;
  int need = 0, way = 1;
  std::array<int, kSmemBanks> words{};  // distinct words each bank serves in the phase
};
std::vector<PhaseInfo> phases_of(const BankReport& r, const SmemSite& s, const SmemAccess& a) {
  std::vector<PhaseInfo> out;
  (void)s, (void)a;
  int ideal_left = r.ideal;  // the report's ideal, one wavefront per active phase (cp.async: fewer)
  for (size_t w = 0; w < r.wavefront_phase.size(); ++w) {
    if (out.empty() || r.wavefront_phase[w] != r.wavefront_phase[w - 1]) {
      PhaseInfo p;
      p.first_row = int(w);
      p.need = ideal_left > 0 ? 1 : 0;
      ideal_left -= p.need;
      out.push_back(p);
    }
    ++out.back().rows;
  }
  // A phase's wavefronts read distinct words of a bank: the rows a bank is busy in are its words.
  for (PhaseInfo& p : out) {
    for (int bank = 0; bank < kSmemBanks; ++bank) {
      for (int w = p.first_row; w < p.first_row + p.rows; ++w) p.words[bank] += !r.wavefront_banks[w][bank].lanes.empty();
      p.way = std::max(p.way, p.words[bank]);
    }
  }
  return out;
}

// Lanes an instruction reads addresses from: all 32 for lds, 8 per matrix for ldmatrix.
int used_lanes(const SmemSite& s) { return is_ldmatrix(s.op) ? 8 * ldmatrix_matrices(s.op) : 32; }

// The site table's last column: how bad its worst execution is. Conflicts with no bank serving two
// words: cp.async's 8 lanes a wavefront, which Nsight Compute counts beyond its ideal (banks.cpp).
std::string verdict(const SmemSite& s) {
  if (s.conflicts == 0) return "conflict-free";
  return s.worst_way > 1 ? "up to " + std::to_string(s.worst_way) + "-way" : "8 lanes a wavefront";
}

// Columns of the site table; widths are measured from the header and every row.
struct Column {
  std::string head;
  Align align;
  float w = 0;
  bool hidden = false;  // left out where the view is narrow
};


// Shared memory as the banks see it, for one access: one row per 128-byte line the access touches (line =
// byte offset / 128), one column per bank, each word the access reads or writes filled in its wavefront's
// colour and numbered with it, so a conflict shows as one column holding several numbers. Returns the
// height used; draws nothing where fewer than two lines of cells fit.
float draw_line_map(Canvas& c, Rect box, const Theme& t, const BankReport& r, const std::string& title, Color title_ink) {
  const float ls = kMinTextSize;
  std::vector<uint32_t> lines;
  for (const auto& row : r.wavefront_banks)
    for (const BankSlot& slot : row)
      if (!slot.lanes.empty()) lines.push_back(slot.word / kSmemBanks);
  std::sort(lines.begin(), lines.end());
  lines.erase(std::unique(lines.begin(), lines.end()), lines.end());
  const float label_w = c.text_size("+999999", ls, Font::Mono).x + ls * 0.6f;
  const float cw = std::min(30.0f, (box.w() - label_w) / kSmemBanks);
  const float top = ls * 1.4f * float(viz::wrap(c, title, ls, box.w()).size());
  const int fit = int((box.h() - top) / std::max(cw, 1.0f));
  if (cw < 4 || fit < 2 || lines.empty()) return 0;
  float y = box.min.y;
  for (const std::string& line : viz::wrap(c, title, ls, box.w())) {
    c.text({box.min.x, y}, viz::elide(c, line, ls, Font::Sans, box.w()), title_ink, ls);
    y += ls * 1.4f;
  }
  const int shown = std::min<int>(int(lines.size()), fit - (int(lines.size()) > fit ? 1 : 0));
  const float gx = box.min.x + label_w;
  for (int i = 0; i < shown; ++i) {
    const float ry = y + i * cw;
    c.text({gx - ls * 0.4f, ry + (cw - ls) * 0.5f}, "+" + std::to_string(lines[i] * kWavefrontBytes), t.text_dim,
           std::min(ls, std::max(cw, ls)), Align::Right, Font::Mono);
    for (int b = 0; b < kSmemBanks; ++b) c.rect_filled({{gx + b * cw + 0.5f, ry + 0.5f}, {gx + (b + 1) * cw - 0.5f, ry + cw - 0.5f}}, t.panel);
  }
  // A word several phases read again (an unpacked wide load whose quarters share bytes) is one cell with
  // every wavefront that reads it: "0,4", or "0+" where that does not fit.
  std::map<std::pair<int, int>, std::vector<int>> cells;  // (line row, bank) -> wavefronts
  for (size_t w = 0; w < r.wavefront_banks.size(); ++w) {
    for (int b = 0; b < kSmemBanks; ++b) {
      const BankSlot& slot = r.wavefront_banks[w][b];
      if (slot.lanes.empty()) continue;
      const auto it = std::lower_bound(lines.begin(), lines.begin() + shown, slot.word / kSmemBanks);
      if (it == lines.begin() + shown || *it != slot.word / kSmemBanks) continue;
      std::vector<int>& ws = cells[{int(it - lines.begin()), b}];
      if (ws.empty() || ws.back() != int(w)) ws.push_back(int(w));
    }
  }
  for (const auto& [at, ws] : cells) {
    const Rect cell{{gx + at.second * cw + 0.5f, y + at.first * cw + 0.5f},
                    {gx + (at.second + 1) * cw - 0.5f, y + (at.first + 1) * cw - 0.5f}};
    const Color fill = lane_color(ws.front() * 5 % 32, t);
    c.rect_filled(cell, fill, 1);
    std::string n;
    for (int w : ws) n += (n.empty() ? "" : ",") + std::to_string(w);
    float fs = viz::fit_size(c, n, ls, kMinTextSize, Font::Sans, cell.w() - 2);
    if (fs <= 0 && ws.size() > 1) n = std::to_string(ws.front()) + "+", fs = viz::fit_size(c, n, ls, kMinTextSize, Font::Sans, cell.w() - 2);
    if (fs > 0 && cell.h() >= fs * 1.3f) c.text({cell.center().x, cell.center().y - fs * 0.5f}, n, text_on(fill), fs, Align::Center);
  }
  float used = top + shown * cw;
  if (shown < int(lines.size())) {
    c.text({gx, y + shown * cw + (cw - ls) * 0.5f},
           "+ " + std::to_string(lines.size() - shown) + " more lines", t.text_dim, ls);
    used += cw;
  }
  return used;
}
}  // namespace

BanksPick banks_pick(const BanksViewInput& in, const BanksViewState& st) {
  BanksPick p;
  if (in.sites.empty()) return p;
  int s = st.site;
  if (s < 0 || s >= int(in.sites.size())) {
    s = 0;  // the worst: most conflicts, then the widest conflict; the first on a tie
    for (int i = 1; i < int(in.sites.size()); ++i) {
      const SmemSite &a = in.sites[i], &b = in.sites[s];
      if (a.conflicts > b.conflicts || (a.conflicts == b.conflicts && a.worst_way > b.worst_way)) s = i;
    }
  }
  p.site = s;
  const SmemSite& site = in.sites[s];
  if (site.accesses.empty()) return p;
  std::set<int> warps, iters;
  bool found = false;
  for (const SmemSiteAccess& x : site.accesses) {
    warps.insert(x.access.warp);
    iters.insert(x.access.iteration);
    found |= x.access.warp == st.warp && x.access.iteration == st.iteration;
  }
  p.warps.assign(warps.begin(), warps.end());
  p.iterations.assign(iters.begin(), iters.end());
  // The epilogue (-1) after the k-iterations, as the kernel runs them.
  std::rotate(p.iterations.begin(), std::upper_bound(p.iterations.begin(), p.iterations.end(), -1), p.iterations.end());
  p.warp = found ? st.warp : site.accesses.front().access.warp;
  p.iteration = found ? st.iteration : site.accesses.front().access.iteration;
  std::vector<const SmemSiteAccess*> group;
  for (const SmemSiteAccess& x : site.accesses)
    if (x.access.warp == p.warp && x.access.iteration == p.iteration) group.push_back(&x);
  p.count = int(group.size());
  if (st.access >= 0 && st.access < p.count) {
    p.access = group[st.access];
  } else {
    p.access = group.front();
    for (const SmemSiteAccess* x : group)
      if (x->report.conflicts > p.access->report.conflicts) p.access = x;
  }
  return p;
}

std::string banks_caption(const SmemSite& site, const SmemSiteAccess& a) {
  int count = 0;
  for (const SmemSiteAccess& x : site.accesses)
    count += x.access.warp == a.access.warp && x.access.iteration == a.access.iteration;
  const BankReport& r = a.report;
  std::string s =
      site.name + ", warp " + std::to_string(a.access.warp) + ", " + iteration_name(a.access.iteration);
  if (count > 1) s += ", access " + std::to_string(a.index + 1) + " of " + std::to_string(count);
  s += ": " + access_words(site, r) + ", " + plural(r.wavefronts, "wavefront", "wavefronts") + ", ideal " +
       std::to_string(r.ideal) + ", " + plural(r.conflicts, "conflict", "conflicts");
  if (r.conflicts > 0) {
    std::vector<int> banks;
    const int way = worst_way(r, &banks);
    if (way > 1)
      s += " (" + std::to_string(way) + "-way on " +
           (banks.size() == size_t(kSmemBanks) ? std::string("all 32 banks")
                                                : std::string(banks.size() == 1 ? "bank " : "banks ") + ranges(banks)) +
           ")";
    else  // C > 0 with no bank serving two words: cp.async (banks.cpp, rule 6); the note under it says why
      s += " (wavefronts past the ideal " + std::to_string(r.ideal) + ", with no bank serving two words)";
  }
  return s;
}


namespace {

// The compare rung's access beside the selected one: the site of the same name, else the first of the same
// instruction, else its worst; the same warp and k-iteration where recorded, its worst execution there.
int compare_site(const BanksViewInput& in, const SmemSite& site) {
  int pick = -1;
  for (size_t i = 0; i < in.compare_sites.size() && pick < 0; ++i)
    if (in.compare_sites[i].name == site.name) pick = int(i);
  for (size_t i = 0; i < in.compare_sites.size() && pick < 0; ++i)
    if (in.compare_sites[i].op == site.op && in.compare_sites[i].name.substr(0, 2) == site.name.substr(0, 2)) pick = int(i);
  return pick;  // -1: banks_pick takes the worst
}

std::string map_title(const std::string& kernel, const SmemSite& s, const SmemSiteAccess& a) {
  const BankReport& r = a.report;
  return kernel + " \xC2\xB7 " + s.name + ", warp " + std::to_string(a.access.warp) + ": " +
         plural(r.wavefronts, "wavefront", "wavefronts") + ", " + plural(r.conflicts, "conflict", "conflicts");
}

// Under the lane strip: the selected access on shared memory's 128-byte lines, and in compare mode the same
// site of a second rung beside it (padding, XOR permutation: the change in one picture).
void draw_maps(Canvas& c, Rect box, const Theme& t, const BanksViewInput& in, const BanksViewState& st,
               const SmemSite& site, const SmemSiteAccess& acc) {
  const bool compare = st.compare && !in.compare_kernel.empty();
  if (box.h() < kMinTextSize * 6) {
    if (compare && box.h() >= kMinTextSize * 1.3f)  // "compare" ticked: say where its picture is
      c.text(box.min, viz::elide(c, in.compare_kernel + " beside it: " + viz::maximise_hint(), kMinTextSize, Font::Sans,
                                 box.w()),
             t.text_dim, kMinTextSize);
    return;
  }
  const float gap = kMinTextSize * 2;
  const Rect left{box.min, {compare ? box.min.x + (box.w() - gap) * 0.5f : box.max.x, box.max.y}};
  const std::string how = "shared memory as the banks see it: a row per 128-byte line touched, a column per "
                          "bank, each word numbered with its wavefront";
  float top = 0;
  for (const std::string& line : viz::wrap(c, how, kMinTextSize, box.w())) {
    c.text({box.min.x, box.min.y + top}, viz::elide(c, line, kMinTextSize, Font::Sans, box.w()), t.text_dim, kMinTextSize);
    top += kMinTextSize * 1.4f;
  }
  Rect l = left;
  l.min.y += top + kMinTextSize * 0.3f;
  draw_line_map(c, l, t, acc.report, map_title(in.kernel, site, acc), t.text);
  if (!compare) return;
  Rect right{{left.max.x + gap, l.min.y}, box.max};
  BanksViewInput other;
  other.sites = in.compare_sites;
  BanksViewState cs;
  cs.site = compare_site(in, site);
  cs.warp = acc.access.warp, cs.iteration = acc.access.iteration;
  const BanksPick p = banks_pick(other, cs);
  if (!p.access) {
    for (const std::string& line : viz::wrap(c, in.compare_kernel + " has no traced shared-memory access to compare with",
                                            kMinTextSize, right.w()))
      c.text(right.min, line, t.text_dim, kMinTextSize), right.min.y += kMinTextSize * 1.4f;
    return;
  }
  const SmemSite& os = in.compare_sites[p.site];
  draw_line_map(c, right, t, p.access->report, map_title(in.compare_kernel, os, *p.access), t.text);
}

}  // namespace

void draw_banks_view(Canvas& c, Rect r, const Theme& t, const BanksViewInput& in, const BanksViewState& st,
                     Vec2 mouse, BanksHover* hover) {
  if (hover) *hover = BanksHover{};
  c.push_clip(r);
  const float fs = std::clamp(std::min(r.w() / 55.0f, r.h() / 34.0f), kMinTextSize, 17.0f);
  const float pad = std::max(6.0f, fs * 0.7f);
  const Rect area = r.inset(pad);
  float y = area.min.y;

  // Title: the kernel, what the view is, where the traces come from.
  const std::string& shown = viz::title_kernel(in.kernel, in.shown_as);
  std::vector<Span> title{{shown.empty() ? std::string("no kernel selected") : shown, t.text, Font::SansBold},
                          {"   shared-memory bank conflicts", t.text_dim, Font::Sans}};
  if (!in.traced_from.empty()) title.push_back({" \xC2\xB7 traced on " + in.traced_from, t.text_dim, Font::Sans});
  if (!in.kernel.empty()) title.push_back({viz::traced_as_note(in.kernel, in.shown_as), t.text_dim, Font::Sans});
  viz::draw_spans(c, {area.min.x, y}, title, fs * 1.1f, area.w());
  y += fs * 1.1f * 1.6f;

  const BanksPick pick = banks_pick(in, st);
  if (pick.site < 0 || !pick.access) {
    // One line that says why there is no picture, in the middle of the view.
    const std::string msg =
        !in.no_lane_addresses.empty() ? in.no_lane_addresses
        : !in.kernel_recorded && !in.live
            ? "This capture holds no record of " + in.kernel + ": it was recorded before the rung existed. "
              "`gemmscope record` on a GPU records it."
        : in.capture_has_smem ? in.kernel + " makes no shared-memory accesses: this capture traced them for the "
                                          "other rungs and recorded none for it."
        : in.live ? "The live session traces no shared-memory addresses: `gemmscope record` does, and --replay shows them."
                  : "No shared-memory accesses in this capture: it was recorded without address traces.";
    if (!in.no_lane_addresses.empty()) {  // TMA and wgmma: the swizzle the descriptors name instead of lanes
      for (const std::string& line : viz::wrap(c, msg, fs, area.w())) {
        c.text({area.min.x, y}, line, t.text, fs);
        y += fs * 1.3f;
      }
      draw_swizzle_modes(c, Rect{{area.min.x, y + fs * 0.8f}, area.max}, t, fs);
    } else {
      viz::centered_message(c, r, msg, t.text_dim, fs);
    }
    c.pop_clip();
    return;
  }
  const SmemSite& site = in.sites[pick.site];
  const SmemSiteAccess& acc = *pick.access;
  const BankReport& rep = acc.report;
  const SmemAccess& a = acc.access;

  // ---- Site table --------------------------------------------------------------------------
  // Columns sized to their widest cell; the site column takes what is left, names elided past it. Where
  // that leaves too little room for the widest name, the columns a reader needs least go first (the caption
  // and the tooltip still say them): accesses, bytes per lane, kind, then the verdict (the conflicts' colour
  // says it); the ideal goes only where a name would keep less than 7 ems.
  std::vector<Column> cols = {{"site", Align::Left},       {"kind", Align::Left},  {"bytes/lane", Align::Right},
                              {"accesses", Align::Right},  {"wavefronts", Align::Right}, {"ideal", Align::Right},
                              {"conflicts", Align::Right}, {"", Align::Left}};
  std::vector<std::vector<std::string>> table;
  for (const SmemSite& s : in.sites)
    table.push_back({s.name, site_instruction(s), std::to_string(s.width),
                     std::to_string(s.accesses.size()), std::to_string(s.wavefronts), std::to_string(s.ideal),
                     std::to_string(s.conflicts), verdict(s)});
  auto bold = [](size_t col) { return col == 0 || col >= 6; };  // names, conflicts and verdicts
  const float ts = std::max(kMinTextSize, fs * 0.9f), cgap = ts * 1.1f;
  float fixed = 0;
  for (size_t i = 0; i < cols.size(); ++i) {
    cols[i].w = c.text_size(cols[i].head, ts, Font::Sans).x;
    for (const auto& row : table)
      cols[i].w = std::max(cols[i].w, c.text_size(row[i], ts, bold(i) ? Font::SansBold : Font::Sans).x);
    if (i > 0) fixed += cols[i].w + cgap;
  }
  // (Names come before the verdict: "Bs ldmatrix.x4..." had lost the ".trans" that sets it apart from A's.)
  const auto drop_until = [&](std::initializer_list<size_t> drops, float name_room) {
    for (size_t drop : drops) {
      if (fixed + name_room + ts <= area.w()) break;
      fixed -= cols[drop].w + cgap;
      cols[drop].hidden = true;
    }
  };
  drop_until({3, 2, 1, 7}, cols[0].w);
  drop_until({5}, std::min(cols[0].w, ts * 7));
  const float rh = ts * 1.55f;
  cols[0].w = std::max(c.text_size("site", ts).x, std::min(cols[0].w, area.w() - fixed - ts * 0.6f));
  {
    float x = area.min.x + ts * 0.3f;
    for (size_t i = 0; i < cols.size(); ++i) {
      if (cols[i].hidden) continue;
      const float tx = cols[i].align == Align::Right ? x + cols[i].w : x;
      c.text({tx, y}, cols[i].head, t.text_dim, ts, cols[i].align);
      x += cols[i].w + cgap;
    }
    y += rh * 0.95f;
    c.line({area.min.x, y - rh * 0.15f}, {area.max.x, y - rh * 0.15f}, t.grid, 1);
  }
  for (size_t si = 0; si < in.sites.size(); ++si) {
    const SmemSite& s = in.sites[si];
    const Rect row{{area.min.x, y}, {area.max.x, y + rh}};
    const bool selected = int(si) == pick.site, hot = row.contains(mouse);
    if (selected) {
      c.rect_filled(row, viz::mix(t.accent, t.panel, 0.78f), 3);
      c.rect_filled({row.min, {row.min.x + 3, row.max.y}}, t.accent);
    } else if (hot) {
      c.rect_filled(row, viz::mix(t.text, t.panel, 0.92f), 3);
    }
    if (hot && hover) hover->site = int(si);
    const std::vector<std::string>& cells = table[si];
    const Color sev = s.conflicts == 0 ? t.good : way_color(std::max(2, s.worst_way), t);
    float x = area.min.x + ts * 0.3f;
    const float ty = y + (rh - ts) * 0.5f;
    for (size_t i = 0; i < cols.size(); ++i) {
      if (cols[i].hidden) continue;
      const bool name = i == 0, severity = i >= 6;  // conflicts and verdict in the severity colour
      const Font f = bold(i) ? Font::SansBold : Font::Sans;
      const Color col = severity ? sev : name ? t.text : t.text_dim;
      const std::string text = name ? viz::elide(c, cells[i], ts, f, cols[i].w) : cells[i];
      c.text({cols[i].align == Align::Right ? x + cols[i].w : x, ty}, text, col, ts, cols[i].align, f);
      x += cols[i].w + cgap;
    }
    y += rh;
  }
  // What the totals count: every access traced for a site, which spans more than the one access the caption
  // names (the recording keeps the first and the last warp, the first k-iterations and the epilogue). A line of
  // its own where the pane is tall enough to keep the grid's rows readable below it.
  if (area.h() >= ts * 28) {
    std::vector<int> warps, iters;
    for (const SmemSite& s : in.sites)
      for (const SmemSiteAccess& x : s.accesses) warps.push_back(x.access.warp), iters.push_back(x.access.iteration);
    const std::string counted = "totals: each site's traced accesses, " + viz::traced_scope(warps, iters);
    y += ts * 0.15f;
    c.text({area.min.x + ts * 0.3f, y}, viz::elide(c, counted, ts, Font::Sans, area.w() - ts * 0.3f), t.text_dim, ts);
    y += ts * 1.3f;
  }
  y += ts * 0.6f;

  // ---- Caption -------------------------------------------------------------------------------
  // Where the grid's rows will not fit below the whole caption, the caption gives way to the banks' way row (below),
  // the last line it keeps cut with "...", all of it where need be: the row and the site table's row show what it
  // says, and the controls above name the warp and the access. Where the row does not fit either, the caption stays.
  const int rows = rep.wavefronts;
  const float ls = kMinTextSize;  // small labels: row names, banks, lane strip
  const float head_h = ls * 1.5f, grid_title = ls * 1.5f, way_h = ls * 1.5f;
  const float way_titled = grid_title + head_h + way_h;  // the row of ways: its title, the banks, their ways
  // The banks and their ways alone, where the title does not fit, the numbers closer over their cells (wmma/08's
  // [pad=off], a table of six sites, had missed it by 5 px at 1600x900 and drawn no row at all).
  const float bare_head_h = ls * 1.3f, way_row = bare_head_h + way_h;
  const std::string caption = banks_caption(site, acc);
  const std::vector<std::string> cap_lines = viz::wrap(c, caption, fs, area.w());
  size_t cap_fit = cap_lines.size();
  // Below the row: its hint, if room. Where not even the bare row fits under the caption cut to nothing (a short
  // pane under a tall site table), the caption keeps a line for the hint that says where the picture is.
  // "compare" ticked: a line says where the comparison went (the tick had changed nothing in sight but the toolbar).
  const bool comparing = st.compare && !in.compare_kernel.empty();
  const float compare_line = comparing ? ls * 1.4f : 0;
  const float way_room = area.max.y - y - fs * 0.5f - way_titled - compare_line;
  const float row_room = area.max.y - y - fs * 0.5f - way_row - compare_line;
  if (area.max.y - y - float(cap_lines.size()) * fs * 1.3f - fs * 1.1f < grid_title + head_h + rows * 8.0f) {
    const float room = way_room >= 0 ? way_room : row_room >= 0 ? row_room : area.max.y - y - fs * 0.5f - ls * 1.2f;
    cap_fit = std::min(cap_lines.size(), size_t(std::max(0.0f, room) / (fs * 1.3f)));
  }
  for (size_t i = 0; i < cap_fit; ++i) {
    const bool cut = i + 1 == cap_fit && cap_fit < cap_lines.size();
    c.text({area.min.x, y}, viz::paragraph_line(c, cap_lines[i], caption, cut, fs, area.w()), t.text, fs);
    y += fs * 1.3f;
  }
  std::string note;
  if (site.op == SmemOp::CpAsync)
    note = site.width == 16 ? "cp.async writes 8 lanes a wavefront; lanes writing one word take turns. Nsight "
                              "Compute's hardware counters show no conflicts for 16-byte cp.async.cg on sm_90 "
                              "(measured): these rows are what the banks serve."
                            : "cp.async writes 8 lanes a wavefront; lanes writing one word take turns.";
  else if (site.op == SmemOp::Sts && site.width > 4)
    note = "A " + std::to_string(site.width) + "-byte store is written " + std::to_string(acc.report.phase_lanes) +
           " lanes at a time (128 bytes); lanes of different phases never conflict.";
  else if (is_ldmatrix(site.op))
    note = "ldmatrix: lane i supplies the 16-byte row address of row i%8 of matrix i/8; each matrix is one phase, "
           "one wavefront when its 8 rows fall in different banks.";
  else if (site.width == 2)
    note = std::string("A 2-byte ") + (site.op == SmemOp::Sts ? "store" : "load") +
           ": banks serve 4-byte words, so lanes on the two halves of one word share it.";
  else if (site.width > 4)
    note = "A " + std::to_string(site.width) + "-byte load returns 128 bytes a wavefront: " +
           std::to_string(acc.report.phase_lanes) + " lanes at a time" +
           (acc.report.packed ? ", twice as many as unpacked because lane pairs read the same addresses."
                              : "; lanes of different phases never conflict.");
  if (site.op == SmemOp::Lds || is_ldmatrix(site.op)) {
    // The measured table (in the capture) prices loads of the same width with as many wavefronts; without one,
    // bench/results/bank_price_h100.tsv's finding: one wavefront a cycle at full load.
    const SmemPrice* cost = site.op == SmemOp::Lds ? price_with(in.price, site.width, rep.wavefronts) : nullptr;
    const SmemPrice* free = site.op == SmemOp::Lds ? price_with(in.price, site.width, rep.ideal) : nullptr;
    if (cost && free)
      note += std::string(note.empty() ? "" : " ") + "Price, measured on " + in.price_from + " (clock64, " +
              std::to_string(cost->warps) + " warps loading): " + viz::fmt_num(cost->cycles) + " cycles per " +
              std::to_string(site.width) + "-byte load with " + plural(rep.wavefronts, "wavefront", "wavefronts") + ", " +
              viz::fmt_num(free->cycles) + " without this access's conflicts.";
    else
      note += std::string(note.empty() ? "" : " ") + "Price: the SM's shared-memory pipe serves one wavefront a cycle "
              "(ld.shared, 16 warps loading, measured on an H100 and an H200" +
              (is_ldmatrix(site.op) ? "; ldmatrix's own price was not measured" : "") +
              "), so this access costs about " + std::to_string(rep.wavefronts) +
              (rep.wavefronts == 1 ? " cycle" : " cycles") + ", " + std::to_string(rep.ideal) + " without its conflicts.";
  }
  const float ns = kMinTextSize;
  // The note gives way to the grid: the lines that leave the grid its title, bank header and rows of 12 px, the
  // last one kept cut with "...".
  const float grid_min = kMinTextSize * 3.0f + fs * 0.6f + float(rep.wavefronts) * 12.0f + fs * 0.5f;
  if (!note.empty()) {
    const std::vector<std::string> lines = viz::wrap(c, note, ns, area.w());
    const int fit = int(std::max(0.0f, (area.max.y - y - grid_min) / (ns * 1.3f)));
    for (size_t i = 0; i < lines.size() && int(i) < fit; ++i) {
      const bool last = int(i) + 1 == fit && i + 1 < lines.size();
      c.text({area.min.x, y}, viz::paragraph_line(c, lines[i], note, last, ns, area.w()), t.text_dim, ns);
      y += ns * 1.3f;
    }
  }
  y += fs * 0.5f;

  // ---- Geometry of the bank grid and the lane strip --------------------------------------------
  const std::vector<PhaseInfo> phases = phases_of(rep, site, a);
  const float row_label_w = c.text_size("wf 31", ls, Font::SansBold).x + ls * 0.8f;
  float phase_w = phases.size() > 1 ? c.text_size("lanes 24-31", ls).x + ls * 0.8f : 0;
  float cw = std::min(44.0f, (area.w() - row_label_w - phase_w) / kSmemBanks);
  if (phase_w > 0 && cw < 12) {  // too narrow for both: the phase rules stay, their labels go
    phase_w = 0;
    cw = std::min(44.0f, (area.w() - row_label_w) / kSmemBanks);
  }
  const float gw = cw * kSmemBanks;
  // Lane strip: 32, 16 or 8 lanes per line, the most whose byte offsets fit their cells.
  uint32_t max_off = 0;
  for (const auto& o : a.addr)
    if (o) max_off = std::max(max_off, *o);
  const float off_w = c.text_size(std::to_string(max_off), ls, Font::Mono).x;
  int per_line = 8;
  for (int n : {32, 16}) {
    if (area.w() / n >= off_w + ls * 0.8f) {
      per_line = n;
      break;
    }
  }
  const float lane_w = std::min(area.w() / per_line, std::max(off_w + ls * 4.0f, gw / per_line));
  const float lane_h = ls * 3.6f, strip_title = ls * 1.5f;
  // The lane strip only where the grid keeps rows of a readable height beside it, and not where leaving it out
  // makes the rows tall enough for their lane numbers (hovering a cell tells the same offsets); without it, one
  // line says where the strip went.
  float strip_h = strip_title + (32 / per_line) * (lane_h + ls * 0.35f);
  const float note_h = ls * 1.5f, numbered = std::min(cw, ls * 1.45f);  // a row that holds a 14 px lane number
  const float rows_h = area.max.y - y - head_h - grid_title - fs * 0.6f;
  const bool strip = rows_h - strip_h >= rows * std::min(cw, 8.0f) &&
                     !(rows_h - strip_h < rows * numbered && rows_h - note_h >= rows * numbered);
  // Where the strip went, in one line, where the rows keep their lane numbers beside it.
  const bool strip_note = !strip && rows_h - note_h >= rows * numbered;
  if (!strip) strip_h = strip_note ? note_h : 0;
  const float avail = area.max.y - y - strip_h - head_h - grid_title - fs * 0.6f;
  // Rows may be taller than a bank is wide (a narrow pane): up to a readable label's height.
  const float ch = std::clamp(avail / std::max(1, rows), 2.0f, std::max(cw, ls * 1.6f));
  const float gx = area.min.x + row_label_w;              // left edge of bank 0
  // Each bank's way: the most words it serves in any phase. The grid's header and the short pane's row show it.
  std::array<int, kSmemBanks> bank_way{};
  for (const PhaseInfo& p : phases)
    for (int bank = 0; bank < kSmemBanks; ++bank) bank_way[bank] = std::max(bank_way[bank], p.words[bank]);
  const auto way_fill = [&](int way) {
    return way == 0 ? t.panel : way == 1 ? viz::mix(t.good, t.panel, 0.55f) : way_color(way, t);
  };
  // A grid of a few rows of under 12 px (4 wavefronts in 32 px, the first rung's B reads in the window of a first
  // start) reads as a smear; the row of ways says the same in numbers. Many such rows still draw their pattern.
  if (ch < 8 || (ch < 12 && rows * ch < 80)) {
    // Slivers say nothing (rows of 4 px were drawn). Where a row of banks fits, each bank says its way, the most
    // words it serves in one phase: what the grid's rows add up to, 8 on banks 0-7 for an 8-way access. Then one
    // line says where the grid is.
    // Comparing, the other rung's numbers for the same site come first, the line cut from its end.
    std::string more_room = "the grid (" + plural(rows, "wavefront row", "wavefront rows") + ") needs more room: " +
                            viz::maximise_hint();
    if (comparing) {
      const int ci = compare_site(in, site);
      const std::string other = name_in_family(in.compare_kernel);
      more_room = ci < 0 ? other + " has no " + site.name + "; " + viz::maximise_hint()
                         : other + "'s " + in.compare_sites[size_t(ci)].name + ": " +
                               plural(in.compare_sites[size_t(ci)].wavefronts, "wavefront", "wavefronts") + ", " +
                               plural(in.compare_sites[size_t(ci)].conflicts, "conflict", "conflicts") +
                               " \xC2\xB7 both drawn: " + viz::maximise_hint();
    }
    // Comparing, that line comes before the row of ways where both do not fit.
    const bool note_first = comparing && area.max.y - y < way_titled + ls * 1.2f && area.max.y - y >= ls * 1.2f;
    if (note_first) {
      c.text({area.min.x, y}, viz::elide(c, more_room, ls, Font::Sans, area.w()), t.text_dim, ls);
      y += ls * 1.4f;
    }
    const bool titled = area.max.y - y >= way_titled;
    if (titled || area.max.y - y >= way_row) {
      // Every bank at 1 with wavefronts past the ideal: cp.async's 8 lanes a wavefront, not a bank serving two words
      // (sgemm/10's "24 conflicts" had stood over a row of green 1s, the note that says why out of sight).
      const bool one_way = site.kind == "cp.async" && rep.conflicts > 0 &&
                           std::all_of(bank_way.begin(), bank_way.end(), [](int w) { return w <= 1; });
      if (titled)
        c.text({area.min.x, y}, viz::elide(c, one_way ? "1-way on every bank: cp.async serves 8 lanes a wavefront"
                                                       : "each bank's way: the most words it serves in one phase (1: no conflict)",
                                           ls, Font::Sans, area.w()),
               t.text_dim, ls);
      else
        y -= grid_title;  // the bare row: the banks' numbers where the title would be
      // The grid's phase labels are not drawn here: the row takes the width they kept.
      const float label_w = c.text_size("bank", ls).x + ls * 0.8f, bx = area.min.x + label_w;
      const float bw = std::min(44.0f, (area.w() - label_w) / kSmemBanks);
      // Bank numbers over their cells: every one where "31" fits a cell, else every 2nd, 4th or 8th.
      int step = 1;
      while (step < 8 && c.text_size("31", ls).x > bw * step - 2) step *= 2;
      const float head = titled ? head_h : bare_head_h, hy = y + grid_title, wy = hy + head;
      for (int bank = 0; bank < kSmemBanks; bank += step)
        c.text({bx + (bank + 0.5f) * bw, hy + (head - ls) * 0.5f}, std::to_string(bank), t.text_dim, ls, Align::Center);
      c.text({bx - ls * 0.4f, hy + (head - ls) * 0.5f}, "bank", t.text_dim, ls, Align::Right);
      for (int bank = 0; bank < kSmemBanks; ++bank) {
        const Rect cell{{bx + bank * bw + 0.5f, wy}, {bx + (bank + 1) * bw - 0.5f, wy + way_h - 2}};
        const Color fill = bank_way[bank] == 0 ? viz::mix(t.panel, t.bg, 0.5f) : way_fill(bank_way[bank]);
        c.rect_filled(cell, fill);
        if (bank_way[bank] == 0) continue;  // an idle bank: an empty cell, as in the grid
        const std::string n = std::to_string(bank_way[bank]);
        const float nfs = viz::fit_size(c, n, ls, kMinTextSize, Font::SansBold, bw - 2);
        if (nfs > 0) c.text({cell.center().x, cell.center().y - nfs * 0.5f}, n, text_on(fill), nfs, Align::Center, Font::SansBold);
      }
      c.text({bx - ls * 0.4f, wy + (way_h - 2 - ls) * 0.5f}, "way", t.text_dim, ls, Align::Right);
      y = wy + way_h + ls * 0.2f;
    }
    if (!note_first && area.max.y - y >= ls * 1.2f)
      c.text({area.min.x, y}, viz::elide(c, more_room, ls, Font::Sans, area.w()), t.text_dim, ls);
    c.pop_clip();
    return;
  }
  const float gy = y + grid_title + head_h;               // top of wavefront 0

  // ---- Bank grid -------------------------------------------------------------------------------
  bool broadcast = false;
  for (const auto& row : rep.wavefront_banks)
    for (const BankSlot& slot : row) broadcast |= slot.lanes.size() > 1;
  // The widest label a cell holds: "31+" where a word is broadcast, "31" where none is.
  const float cell_fs =
      std::min(ch * 0.7f, std::min(fs, viz::fit_size(c, broadcast ? "31+" : "31", ch * 0.7f, 1, Font::Sans, cw - 2)));
  const bool lane_labels = cell_fs >= kMinTextSize;
  // The caption says what the cells show: lane numbers where they fit, else only the lane's colour (wmma/02 at
  // 1600x900 promised numbers its 5-pixel rows had no room for).
  c.text({area.min.x, y},
         viz::elide(c,
                    std::string("banks (bank = byte offset / 4 % 32); one row per wavefront, each cell the word that "
                                "bank reads, ") +
                        (lane_labels ? "labelled with the lane that asked for it"
                                     : "in the colour of the lane that asked for it (" +
                                           viz::hint(broadcast ? "hover a cell for its lanes: some words serve several"
                                                               : "hover a cell for its lane",
                                                     strip ? "the lanes strip below keys each colour"
                                                           : "a larger picture numbers them") +
                                           ")") +
                        (broadcast && lane_labels
                             ? "; 5+ = lane 5 and others: one read of the word serves them all (a broadcast)"
                             : ""),
                    ls, Font::Sans, area.w()),
         t.text_dim, ls);
  // Bank header: each bank's number on its worst way (idle banks stay plain).
  const float hy = y + grid_title;
  // Every bank numbered where "31" fits a cell, else every 2nd or 4th (each number over its cell and into the
  // unnumbered neighbours: narrow cells at 1920x1080 had left the header 32 blank boxes).
  int bank_step = 1;
  while (bank_step < 8 && viz::fit_size(c, "31", ls, kMinTextSize, Font::Sans, cw * float(bank_step) - 2) <= 0) bank_step *= 2;
  const float bank_fs = viz::fit_size(c, "31", ls, kMinTextSize, Font::Sans, cw * float(bank_step) - 2);
  for (int bank = 0; bank < kSmemBanks; ++bank) {
    const Rect hc{{gx + bank * cw + 0.5f, hy}, {gx + (bank + 1) * cw - 0.5f, hy + head_h - 2}};
    c.rect_filled(hc, way_fill(bank_way[bank]), 2);
  }
  for (int bank = 0; bank < kSmemBanks && bank_fs > 0; bank += bank_step) {  // after all boxes: a number reaches over its neighbours'
    const Rect hc{{gx + bank * cw + 0.5f, hy}, {gx + (bank + 1) * cw - 0.5f, hy + head_h - 2}};
    c.text({hc.center().x, hc.center().y - bank_fs * 0.5f}, std::to_string(bank), text_on(way_fill(bank_way[bank])),
           bank_fs, Align::Center);
  }
  c.text({gx - ls * 0.4f, hy + (head_h - 2 - ls) * 0.5f}, "bank", t.text_dim, ls, Align::Right);

  // Rows: a bar and a label on the left say whether the row is needed (good) or a conflict (warn/bad).
  // Row labels: every row where they fit, else every 2nd, 4th or 8th row.
  int label_step = 1;
  while (label_step < 8 && ch * label_step * 0.85f < kMinTextSize) label_step *= 2;
  const float row_fs = std::min(ls, ch * label_step * 0.85f);
  const int hl = st.highlight_lane;
  int hot_row = -1, hot_bank = -1;
  if (mouse.x >= gx && mouse.x < gx + gw && mouse.y >= gy && mouse.y < gy + rows * ch) {
    hot_row = std::min(rows - 1, int((mouse.y - gy) / ch));
    hot_bank = std::min(kSmemBanks - 1, int((mouse.x - gx) / cw));
    if (hover) hover->wavefront = hot_row, hover->bank = hot_bank;
  }
  for (const PhaseInfo& p : phases) {
    for (int k = 0; k < p.rows; ++k) {
      const int w = p.first_row + k;
      const float ry = gy + w * ch;
      const bool extra = k >= p.need;
      const Color status = extra ? way_color(std::max(2, p.way), t) : t.good;
      c.rect_filled({{gx - 4, ry + (ch > 4 ? 0.5f : 0)}, {gx - 1, ry + ch - (ch > 4 ? 0.5f : 0)}}, status);
      if (row_fs >= kMinTextSize && w % label_step == 0)
        c.text({gx - 7, ry + (ch * std::min(label_step, rows - w) - row_fs) * 0.5f}, "wf " + std::to_string(w),
               extra ? status : t.text_dim, row_fs, Align::Right, extra ? Font::SansBold : Font::Sans);
      for (int bank = 0; bank < kSmemBanks; ++bank) {
        const BankSlot& slot = rep.wavefront_banks[w][bank];
        const Rect cell{{gx + bank * cw + 0.5f, ry + (ch > 4 ? 0.5f : 0)},
                        {gx + (bank + 1) * cw - 0.5f, ry + ch - (ch > 4 ? 0.5f : 0)}};
        if (slot.lanes.empty()) {
          c.rect_filled(cell, viz::mix(t.panel, t.bg, 0.5f));
          continue;
        }
        const bool mine = std::find(slot.lanes.begin(), slot.lanes.end(), hl) != slot.lanes.end();
        Color fill = lane_color(slot.lanes.front(), t);
        if (hl >= 0 && !mine) fill = viz::mix(fill, t.bg, 0.75f);
        c.rect_filled(cell, fill);
        if (lane_labels) {
          const std::string label = std::to_string(slot.lanes.front()) + (slot.lanes.size() > 1 ? "+" : "");
          Color ink = text_on(fill);
          if (hl >= 0 && !mine) ink = viz::mix(ink, fill, 0.55f);
          c.text({cell.center().x, cell.center().y - cell_fs * 0.5f}, label, ink, cell_fs, Align::Center);
        }
        if (mine) c.rect(cell.inset(0.75f), t.text, 1.5f);
      }
    }
    // Phase rule under the phase and its lanes at the right, where there are several phases.
    if (phases.size() > 1) {
      const float py = gy + (p.first_row + p.rows) * ch;
      if (&p != &phases.back()) c.line({gx - 6, py}, {gx + gw + 4, py}, t.text_dim, 1.5f);
      const int ph = rep.wavefront_phase[p.first_row], n = rep.phase_lanes;
      const float pfs = std::min(ls, p.rows * ch * 0.8f);
      if (phase_w > 0 && pfs >= kMinTextSize)
        c.text({gx + gw + ls * 0.6f, gy + (p.first_row + p.rows * 0.5f) * ch - pfs * 0.5f}, lane_range(ph * n, n),
               p.rows > p.need ? way_color(std::max(2, p.way), t) : t.text_dim, pfs);
    }
  }
  if (hot_row >= 0) c.rect({{gx + hot_bank * cw, gy + hot_row * ch}, {gx + (hot_bank + 1) * cw, gy + (hot_row + 1) * ch}},
                           t.accent, 2);

  // ---- Lane strip ------------------------------------------------------------------------------
  if (!strip) {
    if (strip_note)
      c.text({area.min.x, gy + rows * ch + fs * 0.3f},
             viz::elide(c, "each lane's byte offset and shared memory's 128-byte lines" +
                               (st.compare && !in.compare_kernel.empty() ? ", " + in.compare_kernel + "'s beside them" : std::string()) +
                               ": " + viz::hint("hover a cell, or maximise this view", "a larger picture shows them"),
                        ls, Font::Sans, area.w()),
             t.text_dim, ls);
    c.pop_clip();
    return;
  }
  float sy = gy + rows * ch + fs * 0.6f;
  c.text({area.min.x, sy}, viz::elide(c, "lanes: byte offset and bank" +
                                             std::string(used_lanes(site) < 32
                                                             ? " (" + lane_range(used_lanes(site), 32 - used_lanes(site)) +
                                                                   " supply no row address to " + site_instruction(site) + ")"
                                                             : ""),
                                      ls, Font::Sans, area.w()),
         t.text_dim, ls);
  sy += strip_title;
  const int words_per_lane = is_ldmatrix(site.op) ? 4 : std::max(1, site.width / kSmemBankBytes);
  for (int lane = 0; lane < 32; ++lane) {
    const float lx = area.min.x + (lane % per_line) * lane_w, ly = sy + (lane / per_line) * (lane_h + ls * 0.35f);
    const Rect box{{lx + 1, ly}, {lx + lane_w - 1, ly + lane_h}};
    const bool active = a.addr[lane].has_value(), used = active && lane < used_lanes(site);
    Color chip = lane_color(lane, t);
    if (!used || (hl >= 0 && hl != lane)) chip = viz::mix(chip, t.bg, 0.75f);
    const Rect top{box.min, {box.max.x, box.min.y + ls * 1.3f}};
    c.rect_filled(box, t.panel, 2);
    c.rect_filled(top, chip, 2);
    c.text({top.center().x, top.min.y + ls * 0.15f}, std::to_string(lane), text_on(chip), ls, Align::Center);
    const Color ink = used ? t.text : t.text_dim;
    const std::string off = active ? std::to_string(*a.addr[lane]) : "-";
    const int b0 = active ? bank_of(*a.addr[lane]) : 0;
    const std::string bank = !active ? "off" : !used ? "unused"
                             : words_per_lane == 1 ? "b" + std::to_string(b0)
                                                   : "b" + std::to_string(b0) + "-" + std::to_string(b0 + words_per_lane - 1);
    c.text({box.center().x, top.max.y + ls * 0.1f}, viz::elide(c, off, ls, Font::Mono, box.w()), ink, ls, Align::Center,
           Font::Mono);
    const float bs = viz::fit_size(c, bank, ls, kMinTextSize, Font::Sans, box.w() - 2);
    if (bs > 0) c.text({box.center().x, top.max.y + ls * 1.15f}, bank, t.text_dim, bs, Align::Center);
    if (hl == lane) c.rect(box.inset(-1), t.text, 2, 2);
    if (box.contains(mouse)) {
      c.rect(box.inset(-1), t.accent, 2, 2);
      if (hover) hover->lane = lane;
    }
  }
  sy += (32 / per_line) * (lane_h + ls * 0.35f) + fs * 0.6f;
  draw_maps(c, {{area.min.x, sy}, area.max}, t, in, st, site, acc);
  c.pop_clip();
}

}  // namespace gs
