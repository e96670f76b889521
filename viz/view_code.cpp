// Code view: the selected rung's own source as its file has it, with the lines that differ from the rung
// before it marked, so a reader sees the step a rung takes in the code itself. The explanation the rung's
// file opens with is drawn above; lines whose probe records a shared-memory site are marked, the bank
// view shows that site.
#include <algorithm>
#include <string>

#include "viz/draw_util.h"
#include "viz/views.h"

namespace gs {
namespace {

// Tabs as two spaces (the rung files have none, but a source is text from outside).
std::string detab(const std::string& s) {
  std::string out;
  for (char ch : s) out += ch == '\t' ? std::string("  ") : std::string(1, ch);
  return out;
}

// A code line in pieces of at most `n` characters: each break after the last space or comma of the piece where
// one lies in its second half, else at n; the pieces after the first indented 4 more than the line.
std::vector<std::string> wrap_code(const std::string& line, int n) {
  std::vector<std::string> out;
  const size_t lead = std::min(line.find_first_not_of(' '), line.size());
  const std::string indent(std::min<size_t>(lead + 4, size_t(n) / 2), ' ');
  std::string rest = line;
  while (int(rest.size()) > n) {
    size_t cut = size_t(n);
    const size_t at = rest.find_last_of(" ,", size_t(n) - 1);
    if (at != std::string::npos && at + 1 > size_t(n) / 2) cut = at + 1;
    out.push_back(rest.substr(0, cut));
    const size_t next = rest.find_first_not_of(' ', cut);
    rest = next == std::string::npos ? std::string() : indent + rest.substr(next);
    if (rest.size() <= indent.size()) rest.clear();
  }
  if (!rest.empty() || out.empty()) out.push_back(rest);
  return out;
}

}  // namespace

std::vector<int> code_rows(const CodeViewInput& in, const CodeViewState& st) {
  std::vector<int> rows;
  for (size_t i = 0; i < in.diff.size(); ++i)
    if (st.show_removed || in.diff[i].kind != DiffLine::Kind::Removed) rows.push_back(int(i));
  return rows;
}

void draw_code_view(Canvas& c, Rect r, const Theme& t, const CodeViewInput& in, const CodeViewState& st, Vec2 mouse,
                    CodeHover* hover) {
  if (hover) *hover = CodeHover{};
  c.push_clip(r);
  const float fs = std::clamp(std::min(r.w() / 60.0f, r.h() / 36.0f), kMinTextSize, 17.0f);
  const float ms = kMinTextSize;  // code: as small as readable, so the most lines fit
  const Rect area = r.inset(std::max(6.0f, fs * 0.6f));
  float y = area.min.y;
  if (in.new_lines.empty()) {
    c.text(area.min, viz::elide(c, "No source embedded for " + in.kernel + ".", fs, Font::Sans, area.w()), t.text_dim, fs);
    c.pop_clip();
    return;
  }
  // The explanation, as the rung's file writes it.
  viz::draw_spans(c, {area.min.x, y}, {{in.kernel, t.text, Font::SansBold}, {"   " + in.title, t.text, Font::Sans}}, fs,
                  area.w());
  y += fs * 1.4f;
  const std::vector<std::string> adds = viz::wrap(c, in.adds, fs, area.w());
  const size_t max_adds = size_t(std::max(1.0f, (area.h() * 0.3f) / (fs * 1.25f)));
  for (size_t i = 0; i < adds.size() && i < max_adds; ++i) {
    c.text({area.min.x, y}, viz::paragraph_line(c, adds[i], in.adds, i + 1 == max_adds && adds.size() > max_adds, fs,
                                                area.w()),
           t.text_dim, fs);
    y += fs * 1.25f;
  }
  // What changed, counted.
  int added = 0, removed = 0;
  for (const DiffLine& d : in.diff) added += d.kind == DiffLine::Kind::Added, removed += d.kind == DiffLine::Kind::Removed;
  const size_t changes = change_starts(in.diff).size();
  const std::string summary = !in.toggle_note.empty() ? in.toggle_note
                              : in.against.empty()
                                  ? "the first rung of its ladder: every line is new"
                                  : "against " + in.against + ": " + std::to_string(added) + " lines added, " +
                                        std::to_string(removed) + " removed, in " + std::to_string(changes) +
                                        (changes == 1 ? " place" : " places");
  y += fs * 0.3f;
  c.text({area.min.x, y}, viz::elide(c, summary, fs, Font::Sans, area.w()),
         in.against.empty() && in.toggle_note.empty() ? t.text_dim : t.accent, fs);
  y += fs * 1.6f;

  // The lines: number, mark, text; a strip at the right maps the whole file.
  const std::vector<int> rows = code_rows(in, st);
  const float lh = ms * 1.3f, strip_w = fs * 0.8f;
  const float num_w =
      c.text_size(std::to_string(std::max(in.new_lines.size() + in.new_offset, in.old_lines.size() + in.old_offset)), ms,
                  Font::Mono)
          .x;
  const Rect list{{area.min.x, y}, {area.max.x - strip_w - fs * 0.4f, area.max.y}};
  const float char_w = std::max(1.0f, c.text_size("M", ms, Font::Mono).x);
  const float tx = list.min.x + num_w + ms * 0.5f + ms * 1.2f;
  const int per_line = std::max(8, int((list.max.x - tx) / char_w));
  // A changed line too long for the pane wraps (the change is what the view is for; cut, it could hide it); an
  // unchanged one is cut with "...". Monospace: a line holds `per_line` characters.
  const auto parts_of = [&](const DiffLine& d) {
    const bool changed = d.kind != DiffLine::Kind::Same;
    const std::string& text = d.kind == DiffLine::Kind::Removed ? in.old_lines[size_t(d.old_line)] : in.new_lines[size_t(d.new_line)];
    return changed ? wrap_code(detab(text), per_line) : std::vector<std::string>{detab(text)};
  };
  // The last screen starts where the rows after it, wrapped, fill the list: counted in rows, a file whose last
  // screen held wrapped lines could not be scrolled to its last lines (mma_f16/12 at 200% stopped at line 265 of 269).
  int last_first = int(rows.size());
  for (float h = 0; last_first > 0;) {
    h += lh * float(parts_of(in.diff[size_t(rows[size_t(last_first - 1)])]).size());
    if (h > list.h() + 0.5f) break;
    --last_first;
  }
  const int first = std::clamp(st.first, 0, std::max(0, std::min(last_first, int(rows.size()) - 1)));
  int shown = 0;
  const Color add_bg = viz::mix(t.good, t.bg, 0.78f), del_bg = viz::mix(t.bad, t.bg, 0.8f);
  c.push_clip(list);
  float ly = list.min.y;
  for (int k = 0; first + k < int(rows.size()); ++k) {
    const DiffLine& d = in.diff[size_t(rows[size_t(first + k)])];
    const bool add = d.kind == DiffLine::Kind::Added, del = d.kind == DiffLine::Kind::Removed;
    std::vector<std::string> parts = parts_of(d);
    // A wrapped changed line with room left for some of its lines shows those (not counted as shown: a page down
    // starts on it), where it had left the rest of the pane empty (mma_f16/08 at 200%: five rows, then a band).
    const int room = int((list.max.y + 0.5f - ly) / lh);
    const bool partial = k > 0 && int(parts.size()) > room;
    if (partial && room < 1) break;  // the first row always, cut by the clip if need be
    if (partial) parts.resize(size_t(room));
    const float row_h = lh * float(parts.size());
    if (!partial) ++shown;
    const Rect row{{list.min.x, ly}, {list.max.x, ly + row_h}};
    if (add || del) c.rect_filled(row, add ? add_bg : del_bg);
    if (d.new_line >= 0 && d.new_line == st.selected) c.rect(row.inset(0.5f), t.accent, 2);
    if (hover && row.contains(mouse)) {
      hover->row = rows[size_t(first + k)];
      c.rect(row, t.text_dim, 1);
    }
    // One numbering, the rung's own file's (as an editor shows it): a removed line, from the rung before, has no
    // number here, so that "line 30" said at the screen names one line ("35", then "30 -", then "36 +" did not).
    if (!del) {
      const std::string num = std::to_string(d.new_line + in.new_offset + 1);
      c.text({list.min.x + num_w, ly + (lh - ms) * 0.5f}, num, t.text_dim, ms, Align::Right, Font::Mono);
    }
    const float mark_x = list.min.x + num_w + ms * 0.5f;
    if (add || del)
      c.text({mark_x, ly + (lh - ms) * 0.5f}, !in.toggle_note.empty() ? ">" : add ? "+" : "-", add ? t.good : t.bad, ms,
             Align::Left, Font::Mono);
    const bool site = d.new_line >= 0 && size_t(d.new_line) < in.sites.size() && !in.sites[size_t(d.new_line)].empty();
    if (site) c.circle_filled({mark_x + ms * 0.3f, ly + lh * 0.5f}, ms * 0.22f, t.accent);
    for (size_t i = 0; i < parts.size(); ++i) {
      const float py = ly + float(i) * lh;
      c.text({tx, py + (lh - ms) * 0.5f}, viz::elide(c, parts[i], ms, Font::Mono, list.max.x - tx), del ? t.text_dim : t.text,
             ms, Align::Left, Font::Mono);
      if (del)
        c.line({tx, py + lh * 0.5f}, {std::min(list.max.x, tx + c.text_size(parts[i], ms, Font::Mono).x), py + lh * 0.5f},
               t.bad.with_alpha(150), 1);
    }
    ly += row_h;
    if (partial) break;
  }
  if (hover) hover->rows_shown = std::max(1, shown);
  c.pop_clip();
  // The file at a glance: change ticks and the part on screen.
  const Rect strip{{area.max.x - strip_w, list.min.y}, {area.max.x, list.max.y}};
  c.rect_filled(strip, t.panel, 2);
  if (!rows.empty()) {
    const float per = strip.h() / float(rows.size());
    for (size_t k = 0; k < rows.size(); ++k) {
      const DiffLine::Kind kind = in.diff[size_t(rows[k])].kind;
      if (kind == DiffLine::Kind::Same) continue;
      const float ty = strip.min.y + k * per;
      c.rect_filled({{strip.min.x, ty}, {strip.max.x, ty + std::max(per, 2.0f)}}, kind == DiffLine::Kind::Added ? t.good : t.bad);
    }
    const float vy0 = strip.min.y + first * per, vy1 = strip.min.y + std::min<int>(first + std::max(1, shown), int(rows.size())) * per;
    c.rect({{strip.min.x - 1, vy0}, {strip.max.x + 1, std::max(vy1, vy0 + 3)}}, t.text, 1.5f);
  }
  c.pop_clip();
}

}  // namespace gs
