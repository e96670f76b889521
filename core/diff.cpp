#include "core/diff.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <optional>
#include <set>

#include "core/text.h"

namespace gs {

std::vector<std::string> split_lines(std::string_view text) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.emplace_back(line);
    start = end + 1;
  }
  return lines;
}

std::vector<DiffLine> line_diff(const std::vector<std::string>& a, const std::vector<std::string>& b, size_t max_lines) {
  // Common start and end first: they are Same whatever the middle is.
  size_t head = 0;
  while (head < a.size() && head < b.size() && a[head] == b[head]) ++head;
  size_t tail = 0;
  while (tail < a.size() - head && tail < b.size() - head && a[a.size() - 1 - tail] == b[b.size() - 1 - tail]) ++tail;
  const size_t n = a.size() - head - tail, m = b.size() - head - tail;
  std::vector<DiffLine> out;
  for (size_t i = 0; i < head; ++i) out.push_back({DiffLine::Kind::Same, int(i), int(i)});
  if (n <= max_lines && m <= max_lines) {
    // LCS lengths of the middles' suffixes: lcs[i][j] for a[head + i..], b[head + j..].
    std::vector<uint32_t> lcs((n + 1) * (m + 1), 0);
    auto at = [&](size_t i, size_t j) -> uint32_t& { return lcs[i * (m + 1) + j]; };
    for (size_t i = n; i-- > 0;)
      for (size_t j = m; j-- > 0;)
        at(i, j) = a[head + i] == b[head + j] ? at(i + 1, j + 1) + 1 : std::max(at(i + 1, j), at(i, j + 1));
    size_t i = 0, j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && a[head + i] == b[head + j]) {
        out.push_back({DiffLine::Kind::Same, int(head + i), int(head + j)});
        ++i, ++j;
      } else if (i < n && (j == m || at(i + 1, j) >= at(i, j + 1))) {
        out.push_back({DiffLine::Kind::Removed, int(head + i), -1});  // removed before added within a change
        ++i;
      } else {
        out.push_back({DiffLine::Kind::Added, -1, int(head + j)});
        ++j;
      }
    }
  } else {
    for (size_t i = 0; i < n; ++i) out.push_back({DiffLine::Kind::Removed, int(head + i), -1});
    for (size_t j = 0; j < m; ++j) out.push_back({DiffLine::Kind::Added, -1, int(head + j)});
  }
  for (size_t k = 0; k < tail; ++k)
    out.push_back({DiffLine::Kind::Same, int(a.size() - tail + k), int(b.size() - tail + k)});
  return out;
}

namespace {

// The comma-separated items between the first '{' and the next '}' from line `at` on (at most 8 lines).
std::vector<std::string> brace_items(const std::vector<std::string>& lines, size_t at) {
  std::string joined;
  for (size_t i = at; i < lines.size() && i < at + 8; ++i) {
    joined += lines[i] + " ";
    if (lines[i].find('}') != std::string::npos) break;
  }
  const size_t open = joined.find('{'), close = joined.find('}', open);
  std::vector<std::string> items;
  if (open == std::string::npos || close == std::string::npos) return items;
  std::string item;
  bool quoted = false;
  for (size_t i = open + 1; i < close; ++i) {
    const char c = joined[i];
    if (c == '"') quoted = !quoted;
    if (c == ',' && !quoted) {
      items.push_back(item);
      item.clear();
    } else {
      item += c;
    }
  }
  items.push_back(item);
  for (std::string& it : items) {  // trim, and unquote string items
    it = trim(it);
    if (it.size() >= 2 && it.front() == '"' && it.back() == '"') it = it.substr(1, it.size() - 2);
  }
  if (!items.empty() && items.back().empty()) items.pop_back();
  return items;
}

bool is_ident(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

}  // namespace

std::vector<std::string> probe_site_lines(const std::vector<std::string>& lines) {
  std::vector<std::string> enumerators, names;
  for (size_t i = 0; i < lines.size(); ++i) {
    if (enumerators.empty() && lines[i].find("enum Site") != std::string::npos) enumerators = brace_items(lines, i);
    if (names.empty() && lines[i].find("kSmemSites[]") != std::string::npos) names = brace_items(lines, i);
  }
  std::vector<std::string> out(lines.size());
  for (size_t i = 0; i < lines.size(); ++i) {
    // Global sites are the probe's own (kGmemA, kGmemB, kGmemC: "A", "B", "C"), the same in every rung.
    const size_t g = lines[i].find("probe.gmem(");
    if (g != std::string::npos) {
      size_t b = g + 11;
      while (b < lines[i].size() && lines[i][b] == ' ') ++b;
      const std::string id = lines[i].substr(b, 6);
      if (id == "kGmemA" || id == "kGmemB" || id == "kGmemC") out[i] = id.substr(5, 1);
      continue;
    }
    const size_t call = lines[i].find("probe.smem(");
    if (call == std::string::npos) continue;
    size_t b = call + 11;
    while (b < lines[i].size() && lines[i][b] == ' ') ++b;
    size_t e = b;
    while (e < lines[i].size() && is_ident(lines[i][e])) ++e;
    const std::string id = lines[i].substr(b, e - b);
    for (size_t k = 0; k < enumerators.size() && k < names.size(); ++k)
      if (enumerators[k] == id) out[i] = names[k];
  }
  return out;
}

std::vector<int> change_starts(const std::vector<DiffLine>& diff) {
  std::vector<int> starts;
  for (size_t i = 0; i < diff.size(); ++i)
    if (diff[i].kind != DiffLine::Kind::Same && (i == 0 || diff[i - 1].kind == DiffLine::Kind::Same))
      starts.push_back(int(i));
  return starts;
}

int main_change(const std::vector<DiffLine>& diff, const std::vector<std::string>& old_lines,
                const std::vector<std::string>& new_lines, int reach) {
  const auto is_code = [](const std::string& line) {
    const std::string t = trim(line);
    return !t.empty() && t.rfind("//", 0) != 0 && t.rfind("#include", 0) != 0 && t.find("GS_PROBE") == std::string::npos &&
           t.find("kSmemSites") == std::string::npos && t.find("kGmemSites") == std::string::npos;
  };
  // A line's code without its trailing comment and with its spaces squeezed: a line whose comment alone changed
  // is removed and added with the same code (sgemm/02 opened on two such lines, its real change above them).
  const auto code_of = [](const std::string& line) {
    std::string out;
    const std::string t = trim(line.substr(0, line.find("//")));
    for (char ch : t)
      if (!(ch == ' ' || ch == '\t') || (!out.empty() && out.back() != ' ')) out += ch == '\t' ? ' ' : ch;
    return out;
  };
  const std::vector<int> starts = change_starts(diff);
  std::vector<int> code(starts.size(), 0);  // per run, its changed lines of code
  size_t best = 0;
  for (size_t r = 0; r < starts.size(); ++r) {
    std::multiset<std::string> removed, added;
    for (size_t i = size_t(starts[r]); i < diff.size() && diff[i].kind != DiffLine::Kind::Same; ++i) {
      const DiffLine& d = diff[i];
      const bool new_side = d.kind == DiffLine::Kind::Added;
      const std::string* line = new_side
                                    ? (size_t(d.new_line) < new_lines.size() ? &new_lines[size_t(d.new_line)] : nullptr)
                                    : (size_t(d.old_line) < old_lines.size() ? &old_lines[size_t(d.old_line)] : nullptr);
      if (line && is_code(*line)) (new_side ? added : removed).insert(code_of(*line));
    }
    int gone = 0;
    for (const std::string& c : removed) {  // a removed line of code added back unchanged is no change of code
      const auto same = added.find(c);
      if (same != added.end()) added.erase(same);
      else ++gone;
    }
    // What the rung writes counts before what it takes away: sgemm/02's ten lines of epilogue folded into one call
    // of a shared helper outweighed its two new lines that turn the warp along a row, the rung's step.
    code[r] = int(added.size()) * 1000 + gone;
    if (code[r] > code[best]) best = r;
  }
  if (starts.empty()) return -1;
  size_t first = best;
  for (size_t r = best; r-- > 0 && starts[best] - starts[r] <= reach;)
    if (code[r] > 0) first = r;
  return starts[first];
}

int comment_above(const std::vector<DiffLine>& diff, const std::vector<std::string>& old_lines,
                  const std::vector<std::string>& new_lines, int at, int reach) {
  if (at <= 0 || size_t(at) > diff.size()) return at;
  // The text of diff line i as shown (a removed line from the old text), trimmed; nullopt where there is none.
  const auto text = [&](int i) -> std::optional<std::string> {
    const DiffLine& d = diff[size_t(i)];
    const bool old_side = d.kind == DiffLine::Kind::Removed;
    const int n = old_side ? d.old_line : d.new_line;
    const std::vector<std::string>& lines = old_side ? old_lines : new_lines;
    if (n < 0 || size_t(n) >= lines.size()) return std::nullopt;
    return trim(lines[size_t(n)]);
  };
  const auto comment = [&](int i) {
    const auto t = text(i);
    return t && t->rfind("//", 0) == 0;
  };
  // Up to two lines of code between the comment and the change: the declaration the change opens in
  // ("template <class Probe>" above mma_tf32/08's load_frags, "struct Frags {" in mma_tf32/11).
  int i = at - 1;
  for (int code = 0; i >= 0 && code < 2 && !comment(i); ++code, --i)
    if (const auto t = text(i); !t || t->empty()) return at;
  if (i < 0 || !comment(i)) return at;
  int top = i;
  for (int n = 1; i - 1 >= 0 && n < reach && comment(i - 1); ++n) top = --i;
  return top;
}

bool is_step_line(const std::string& line) { return trim(line).rfind("// Step:", 0) == 0; }

int opening(const std::vector<DiffLine>& diff, const std::vector<std::string>& old_lines,
            const std::vector<std::string>& new_lines) {
  for (size_t i = 0; i < diff.size(); ++i) {
    const int n = diff[i].new_line;
    if (diff[i].kind != DiffLine::Kind::Removed && n >= 0 && size_t(n) < new_lines.size() &&
        is_step_line(new_lines[size_t(n)]))
      return int(i);
  }
  if (old_lines.empty()) return -1;  // against nothing every line is new: no change to find
  return comment_above(diff, old_lines, new_lines, main_change(diff, old_lines, new_lines));
}

}  // namespace gs
