#include "core/capture.h"
#include "core/text.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <nlohmann/json.hpp>

#include "core/capture_limits.h"
#include "core/banks.h"  // smem_width_ok: the price table's widths are the loads' the model takes
#include "core/files.h"
#include "core/layout.h"

namespace gs {

using json = nlohmann::ordered_json;

namespace {

// ---- Writing ----------------------------------------------------------------------------------

// Column names of the compact block and stage rows, written into each group so a file explains itself.
const json kBlockFields = {"launch", "bx", "by", "tile_m", "tile_n", "smid", "start_ns", "end_ns"};
const json kStageFields = {"block", "warp", "stage", "start", "end"};

json device_json(const DeviceInfo& d) {
  return {{"name", d.name},
          {"compute_capability", std::to_string(d.cc_major) + "." + std::to_string(d.cc_minor)},
          {"sm_count", d.sm_count},
          {"l2_bytes", d.l2_bytes},
          {"smem_per_sm_bytes", d.smem_per_sm_bytes},
          {"sm_clock_mhz", d.sm_clock_mhz},
          {"mem_clock_mhz", d.mem_clock_mhz},
          {"driver", d.driver},
          {"cuda_runtime", d.cuda_runtime}};
}

json layout_json(const FragmentLayout& l) {
  // Cells as [lane, elem, row, col] rows keep a 512-cell layout readable and small.
  json cells = json::array();
  for (const LayoutCell& c : l.cells) cells.push_back({c.lane, c.elem, c.row, c.col});
  return {{"op", l.op}, {"operand", l.operand}, {"source", l.source},
          {"rows", l.rows}, {"cols", l.cols}, {"cells", std::move(cells)}};
}

json smem_json(const SmemAccess& s) {
  json addr = json::array();
  for (const auto& a : s.addr) addr.push_back(a ? json(*a) : json(nullptr));
  return {{"kernel", s.kernel}, {"site", s.site}, {"warp", s.warp}, {"iteration", s.iteration},
          {"kind", s.kind}, {"width", s.width}, {"addr", std::move(addr)}};
}

json gmem_json(const GmemAccess& g) {
  json offset = json::array();
  for (const auto& o : g.offset) offset.push_back(o ? json(*o) : json(nullptr));
  return {{"kernel", g.kernel}, {"site", g.site}, {"warp", g.warp}, {"iteration", g.iteration},
          {"kind", g.kind}, {"width", g.width}, {"matrix", std::string(1, g.matrix)},
          {"offset", std::move(offset)}};
}

// ---- Reading: every accessor names the path of what it reads, so the first problem is precise. --

class Reader {
 public:
  explicit Reader(std::string file) : file_(std::move(file)) {}

  // One line of at most kMaxMessage characters: a long folder is cut from the front (the file's own name is the
  // part a reader needs), and what the file says is quoted through quote().
  static constexpr size_t kMaxMessage = 200;
  [[noreturn]] void fail(const std::string& where, const std::string& what) const {
    const std::string file = cut_start(escape(file_), 97);
    throw CaptureError(cut_end(file + ": " + (where.empty() ? "" : where + ": ") + escape(what), kMaxMessage - 3));
  }
  // Text from the file, for a message: at most 40 characters, control characters escaped.
  static std::string quote(const std::string& s) {
    return "\"" + escape(cut_end(s, 40)) + "\"";  // whole characters cut, then escaped
  }
  static std::string escape(const std::string& s) { return escape_line(s); }

  const json& field(const json& obj, const std::string& where, const char* key) const {
    if (!obj.is_object()) fail(where, "expected an object");
    auto it = obj.find(key);
    if (it == obj.end()) fail(where, std::string("missing field \"") + key + "\"");
    return *it;
  }
  // Every string of a capture is a name or a sentence; longer than this, the file is damaged (and a view
  // asked to draw a megabyte-long name would take minutes).
  static constexpr size_t kMaxString = 4096;
  std::string str(const json& obj, const std::string& where, const char* key) const {
    const json& v = field(obj, where, key);
    if (!v.is_string()) fail(join(where, key), "expected a string");
    const std::string& s = v.get_ref<const std::string&>();
    if (s.size() > kMaxString)
      fail(join(where, key), std::to_string(s.size()) + " characters, more than the " + std::to_string(kMaxString) +
                                 " a capture's text may have");
    return s;
  }
  int64_t integer(const json& obj, const std::string& where, const char* key, int64_t lo = 0,
                  int64_t hi = INT64_MAX) const {
    return as_int(field(obj, where, key), join(where, key), lo, hi);
  }
  int64_t as_int(const json& v, const std::string& where, int64_t lo = 0, int64_t hi = INT64_MAX) const {
    if (!v.is_number_integer()) fail(where, "expected an integer");
    const int64_t x = v.is_number_unsigned() ? int64_t(v.get<uint64_t>()) : v.get<int64_t>();
    if (x < lo || x > hi)
      fail(where, std::to_string(x) + " is out of range [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
    return x;
  }
  // The same, where the value's name is where(field), built only to say what is wrong with it.
  template <class Where>
  int64_t as_int(const json& v, const Where& where, const char* field, int64_t lo = 0, int64_t hi = INT64_MAX) const {
    if (v.is_number_integer()) {
      const int64_t x = v.is_number_unsigned() ? int64_t(v.get<uint64_t>()) : v.get<int64_t>();
      if (x >= lo && x <= hi) return x;
    }
    return as_int(v, where(field), lo, hi);
  }
  // A number a view can draw: finite and within [lo, hi] (a TFLOP/s of 1e39 is damage, not a measurement).
  double number(const json& obj, const std::string& where, const char* key, double lo = -1e15,
                double hi = 1e15) const {
    return as_number(field(obj, where, key), join(where, key), lo, hi);
  }
  double as_number(const json& v, const std::string& where, double lo, double hi) const {
    if (!v.is_number()) fail(where, "expected a number");
    const double x = v.get<double>();
    if (!(x >= lo && x <= hi)) fail(where, fmt(x) + " is out of range [" + fmt(lo) + ", " + fmt(hi) + "]");
    return x;
  }
  static std::string fmt(double x) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", x);
    return buf;
  }
  const json& array(const json& obj, const std::string& where, const char* key) const {
    const json& v = field(obj, where, key);
    if (!v.is_array()) fail(join(where, key), "expected an array");
    return v;
  }
  static std::string join(const std::string& where, const char* key) {
    return where.empty() ? key : where + "." + key;
  }
  static std::string at(const std::string& where, size_t i) { return where + "[" + std::to_string(i) + "]"; }

 private:
  std::string file_;
};

// The largest rate (TFLOP/s or TB/s) and time a capture may hold: far above any GPU, far below what overflows a
// view's arithmetic.
constexpr double kMaxRate = 1e5, kMaxMs = 1e9;

DeviceInfo read_device(const Reader& r, const json& d) {
  const std::string w = "device";
  DeviceInfo out;
  out.name = r.str(d, w, "name");
  const std::string cc = r.str(d, w, "compute_capability");
  if (std::sscanf(cc.c_str(), "%d.%d", &out.cc_major, &out.cc_minor) != 2)
    r.fail(w + ".compute_capability", "expected \"MAJOR.MINOR\", got " + Reader::quote(cc));
  out.sm_count = int(r.integer(d, w, "sm_count", 1, 100000));
  out.l2_bytes = r.integer(d, w, "l2_bytes");
  out.smem_per_sm_bytes = r.integer(d, w, "smem_per_sm_bytes");
  out.sm_clock_mhz = int(r.integer(d, w, "sm_clock_mhz", 0, 100000));
  out.mem_clock_mhz = int(r.integer(d, w, "mem_clock_mhz", 0, 100000));
  out.driver = r.str(d, w, "driver");
  out.cuda_runtime = r.str(d, w, "cuda_runtime");
  return out;
}

FragmentLayout read_layout(const Reader& r, const json& j, const std::string& w) {
  FragmentLayout l;
  l.op = r.str(j, w, "op");
  l.operand = r.str(j, w, "operand");
  if (l.operand != "A" && l.operand != "B" && l.operand != "C")
    r.fail(w + ".operand", "expected \"A\", \"B\" or \"C\", got " + Reader::quote(l.operand));
  l.source = r.str(j, w, "source");
  if (l.source != "documented" && l.source != "traced")
    r.fail(w + ".source", "expected \"documented\" or \"traced\", got " + Reader::quote(l.source));
  l.rows = int(r.integer(j, w, "rows", 1, 256));
  l.cols = int(r.integer(j, w, "cols", 1, 256));
  const json& cells = r.array(j, w, "cells");
  const MmaOp* op = find_mma_op(l.op);
  const int lanes = op ? op->threads : 32;  // a lane of a wgmma layout is a thread of the warpgroup
  // An op this build knows fixes the operand's shape and its slots: every lane holds elements 0..n-1 once. Where
  // the slots hold (row, col) is what a trace observes, and may differ from PTX (that is what the view shows).
  const std::optional<Operand> o = parse_operand(l.operand);
  const int elems = op && o && has_operand(*op, *o) ? fragment_elems(*op, *o) : 0;
  if (elems > 0) {
    const Extent e = operand_extent(*op, *o);
    if (l.rows != e.rows || l.cols != e.cols)
      r.fail(w, l.op + " " + l.operand + " is " + std::to_string(e.rows) + "x" + std::to_string(e.cols) + ", not " +
                    std::to_string(l.rows) + "x" + std::to_string(l.cols));
    if (cells.size() != size_t(lanes) * size_t(elems))
      r.fail(w + ".cells", "expected " + std::to_string(lanes * elems) + " cells (" + std::to_string(lanes) + " lanes x " +
                               std::to_string(elems) + " elements), got " + std::to_string(cells.size()));
  }
  std::vector<bool> seen(size_t(lanes) * size_t(std::max(elems, 1)), false);
  for (size_t i = 0; i < cells.size(); ++i) {
    const std::string cw = Reader::at(w + ".cells", i);
    if (!cells[i].is_array() || cells[i].size() != 4) r.fail(cw, "expected [lane, elem, row, col]");
    LayoutCell c;
    c.lane = int(r.as_int(cells[i][0], cw + "[0] (lane)", 0, lanes - 1));
    c.elem = int(r.as_int(cells[i][1], cw + "[1] (elem)", 0, 1023));
    // A traced slot that decoded to no element is stored as row/col -1 so a view can mark it.
    c.row = int(r.as_int(cells[i][2], cw + "[2] (row)", -1, l.rows - 1));
    c.col = int(r.as_int(cells[i][3], cw + "[3] (col)", -1, l.cols - 1));
    if ((c.row < 0) != (c.col < 0))
      r.fail(cw, "row " + std::to_string(c.row) + " and col " + std::to_string(c.col) +
                     ": an element decoded to nowhere has both -1, any other neither");
    if (elems > 0) {
      if (c.elem >= elems) r.fail(cw + "[1] (elem)", "expected 0-" + std::to_string(elems - 1) + ", got " + std::to_string(c.elem));
      const size_t slot = size_t(c.lane) * size_t(elems) + size_t(c.elem);
      if (seen[slot])
        r.fail(cw, "lane " + std::to_string(c.lane) + " element " + std::to_string(c.elem) + " appears twice");
      seen[slot] = true;
    }
    l.cells.push_back(c);
  }
  return l;
}

}  // namespace

std::string capture_to_json(const Capture& c) {
  json j;
  j["schema"] = c.schema;
  j["recorded_at"] = c.recorded_at;
  j["tool"] = c.tool;
  j["device"] = device_json(c.device);
  j["peaks"] = json::array();
  for (const Peak& p : c.peaks)
    j["peaks"].push_back({{"name", p.name}, {"value", p.value}, {"unit", p.unit}, {"source", p.source}});
  j["runs"] = json::array();
  for (const RunRecord& r : c.runs)
    j["runs"].push_back({{"kernel", r.kernel}, {"m", r.m}, {"n", r.n}, {"k", r.k}, {"dtype", r.dtype},
                         {"median_ms", r.median_ms}, {"tflops", r.tflops},
                         {"cublas_tflops", r.cublas_tflops},
                         // A run whose output held NaN has no finite error: JSON has no NaN, so null.
                         {"rel_err", std::isfinite(r.rel_err) ? json(r.rel_err) : json(nullptr)},
                         {"samples_ms", r.samples_ms}});
  for (size_t i = 0; i < c.runs.size(); ++i)
    if (c.runs[i].cublas_paired) j["runs"][i]["cublas_paired"] = true;
  j["layouts"] = json::array();
  for (const FragmentLayout& l : c.layouts) j["layouts"].push_back(layout_json(l));
  j["smem"] = json::array();
  for (const SmemAccess& s : c.smem) j["smem"].push_back(smem_json(s));
  j["gmem"] = json::array();
  for (const GmemAccess& g : c.gmem) j["gmem"].push_back(gmem_json(g));
  // Block and stage records come by the ten thousand: grouped by kernel, one compact row each.
  // Appends one row to `groups`, opening a new group whenever the kernel changes.
  auto add_row = [](json& groups, const std::string& kernel, const json& fields, json row) {
    if (groups.empty() || groups.back()["kernel"] != kernel)
      groups.push_back({{"kernel", kernel}, {"fields", fields}, {"records", json::array()}});
    groups.back()["records"].push_back(std::move(row));
  };
  j["blocks"] = json::array();
  for (const BlockRecord& b : c.blocks)
    add_row(j["blocks"], b.kernel, kBlockFields, {b.launch, b.bx, b.by, b.tile_m, b.tile_n, b.smid, b.start_ns, b.end_ns});
  j["stages"] = json::array();
  for (const StageRecord& s : c.stages)
    add_row(j["stages"], s.kernel, kStageFields, {s.block, s.warp, s.stage, s.start, s.end});
  if (!c.l2.empty()) {
    j["l2"] = json::array();
    for (const L2Record& l : c.l2)
      j["l2"].push_back({{"kernel", l.kernel}, {"m", l.m}, {"n", l.n}, {"k", l.k}, {"hit_pct", l.hit_pct},
                         {"dram_read_bytes", l.dram_read_bytes}, {"duration_ns", l.duration_ns}});
  }
  if (!c.series.empty()) {
    j["series"] = json::array();
    for (const SeriesPoint& p : c.series)
      j["series"].push_back({{"t", p.t}, {"tflops", p.tflops}, {"cublas_tflops", p.cublas_tflops}, {"sm_mhz", p.sm_mhz},
                             {"kernel", p.kernel}});
  }
  if (!c.merged.empty()) {
    j["merged"] = json::array();
    for (const MergedList& m : c.merged)
      j["merged"].push_back({{"kernel", m.kernel}, {"list", m.list}, {"recorded_at", m.recorded_at}});
  }
  if (!c.smem_price.empty()) {
    j["smem_price"] = json::array();
    for (const SmemPrice& p : c.smem_price)
      j["smem_price"].push_back({{"width", p.width}, {"stride_bytes", p.stride_bytes}, {"warps", p.warps}, {"cycles", p.cycles}});
  }
  // One record per line: a capture holds tens of thousands of block records, and this keeps it
  // compact, greppable and diffable line by line.
  std::string out = "{\n";
  bool first_key = true;
  for (auto it = j.begin(); it != j.end(); ++it) {
    out += first_key ? "" : ",\n";
    first_key = false;
    out += " " + json(it.key()).dump() + ": ";
    if (!it->is_array()) {
      out += it->dump();
      continue;
    }
    out += "[";
    for (size_t i = 0; i < it->size(); ++i) {
      const json& item = (*it)[i];
      out += i ? ",\n  " : "\n  ";
      if (!item.is_object() || !item.contains("records")) {
        out += item.dump();
        continue;
      }
      // A group: its header on one line, then one record per line.
      out += "{\"kernel\": " + item["kernel"].dump() + ", \"fields\": " + item["fields"].dump() + ", \"records\": [";
      const json& rec = item["records"];
      for (size_t r = 0; r < rec.size(); ++r) out += (r ? ",\n   " : "\n   ") + rec[r].dump();
      out += "]}";
    }
    out += it->empty() ? "]" : "\n ]";
  }
  return out + "\n}\n";
}

namespace {

// Captures recorded before the block order variants became rung[order=S] named the row-major one
// rung[order=row]; it is rung[order=none] now.
void rename_old_variants(Capture* c) {
  static const std::string kOld = "[order=row]", kNew = "[order=none]";
  auto fix = [&](std::string& k) {
    if (k.size() > kOld.size() && k.compare(k.size() - kOld.size(), kOld.size(), kOld) == 0)
      k.replace(k.size() - kOld.size(), kOld.size(), kNew);
  };
  for (auto& r : c->runs) fix(r.kernel);
  for (auto& a : c->smem) fix(a.kernel);
  for (auto& a : c->gmem) fix(a.kernel);
  for (auto& b : c->blocks) fix(b.kernel);
  for (auto& s : c->stages) fix(s.kernel);
  for (auto& m : c->merged) fix(m.kernel);
}

// "YYYY-MM-DD" and anything after it (a time): what recorded_day reads.
bool iso_day(const std::string& s) {
  if (s.size() < 10 || s[4] != '-' || s[7] != '-') return false;
  for (int i : {0, 1, 2, 3, 5, 6, 8, 9})
    if (s[size_t(i)] < '0' || s[size_t(i)] > '9') return false;
  return true;
}

// The limits on a capture's JSON, counted event by event, so that a damaged file is refused when it passes one. Given
// where to build the JSON, each event goes on to nlohmann's own DOM builder once counted: one pass, with no more
// built than the limits allow (lexing the bundled capture twice, to count and then to build, was a quarter of every
// start's second). parse_limited counts a long text first without building it. (nlohmann's parse with a callback
// would count in one pass too, but on every object's end it rescans the whole parent for a discarded value:
// quadratic in a long list of objects, 1.5 s for 64,000 `smem` records and 30 s under ASan.)
class JsonLimits final : public json::json_sax_t {
 public:
  // out: where to build the JSON as it is counted; none: counted only.
  JsonLimits(const Reader& r, json* out) : r_(r) {
    if (out) dom_.emplace(*out, false);
  }
  bool null() override { return value() && (!dom_ || dom_->null()); }
  bool boolean(bool v) override { return value() && (!dom_ || dom_->boolean(v)); }
  bool number_integer(number_integer_t v) override { return value() && (!dom_ || dom_->number_integer(v)); }
  bool number_unsigned(number_unsigned_t v) override { return value() && (!dom_ || dom_->number_unsigned(v)); }
  bool number_float(number_float_t v, const string_t& s) override {
    return value() && (!dom_ || dom_->number_float(v, s));
  }
  bool string(string_t& v) override { return value() && (!dom_ || dom_->string(v)); }
  bool binary(binary_t& v) override { return value() && (!dom_ || dom_->binary(v)); }
  bool start_object(std::size_t n) override { return start() && (!dom_ || dom_->start_object(n)); }
  bool start_array(std::size_t n) override { return start() && (!dom_ || dom_->start_array(n)); }
  bool key(string_t& v) override {
    nested();
    if (!keys_.empty() && ++keys_.back() > kMaxCaptureObjectKeys)
      r_.fail("", "more than " + std::to_string(kMaxCaptureObjectKeys) + " keys in one JSON object (not a capture)");
    return !dom_ || dom_->key(v);
  }
  bool end_object() override { return end() && (!dom_ || dom_->end_object()); }
  bool end_array() override { return end() && (!dom_ || dom_->end_array()); }
  bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& e) override {
    error = e.what();
    byte = position;
    return false;
  }
  std::string error;  // nlohmann's message for text that is not JSON (a number too large for a double included)
  std::size_t byte = 0;  // where: the byte after the offending token, as json::parse_error::byte

 private:
  bool nested() const {  // depth: the arrays and objects this event is inside
    if (keys_.size() > size_t(kMaxCaptureDepth))
      r_.fail("", "nested deeper than " + std::to_string(kMaxCaptureDepth) + " levels (not a capture)");
    return true;
  }
  bool value() {
    nested();
    if (++values_ > kMaxCaptureValues)
      r_.fail("", "more than " + std::to_string(kMaxCaptureValues / 1000000) + " million JSON values (not a capture)");
    return true;
  }
  bool start() {
    value();
    if (++containers_ > kMaxCaptureContainers)
      r_.fail("", "more than " + std::to_string(kMaxCaptureContainers / 1000000) +
                      " million JSON arrays and objects (not a capture)");
    keys_.push_back(0);
    return true;
  }
  bool end() {
    if (!keys_.empty()) keys_.pop_back();
    return true;
  }
  const Reader& r_;
  std::optional<nlohmann::detail::json_sax_dom_parser<json>> dom_;  // without exceptions: parse_error says what failed
  uint64_t values_ = 0, containers_ = 0;
  // One entry per open array or object (their depth): the keys so far in each (an array's stays 0).
  std::vector<uint32_t> keys_;
};

// nlohmann's message carries the byte offset; keep only its explanation, and never more than a line of it (it
// quotes the offending token, which a damaged file can make megabytes long). A number too large for a double
// ("1e400") is an out_of_range error, not a parse_error.
std::string explain(const std::string& error) {
  std::string what = error;
  const auto pos = what.find("parse error");
  what = pos == std::string::npos ? what.substr(what.find(']') == std::string::npos ? 0 : what.find(']') + 2)
                                  : what.substr(pos);
  if (what.size() > 200) what = what.substr(0, 200) + "...";
  // The quoted token is the file's own bytes, which may be no UTF-8 at all (a terminal shows them as junk): bytes
  // past ASCII are written as \xNN.
  std::string clean;
  for (const char ch : what) {
    const auto b = static_cast<unsigned char>(ch);
    if (b < 0x80) {
      clean += ch;
    } else {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02X", b);
      clean += hex;
    }
  }
  return clean;
}

// Parses a capture or a bench JSON within a capture's limits: depth and size are counted as it is built
// (JsonLimits), so a damaged file is refused before more than the limits allow is in memory. The top level must be
// an object.
json parse_limited(const std::string& file_text, const Reader& r) {
  // A gzipped capture (the bundled one is) is inflated first, to at most a capture's size.
  const bool gz = is_gzip(file_text);
  std::string inflated;
  if (gz) {
    try {
      inflated = gunzip(file_text, kMaxCaptureBytes);
    } catch (const std::runtime_error& e) {
      r.fail("", e.what());
    }
  }
  const std::string& text = gz ? inflated : file_text;
  // JSON has no raw NUL byte, and the parser would take one for the end of the text: a capture followed by a NUL and
  // junk was read as whole, and a file starting with one was called "unexpected end of input".
  if (const size_t nul = text.find('\0'); nul != std::string::npos) {
    const size_t line_start = text.rfind('\n', nul);
    r.fail("", "not valid JSON: a NUL byte at line " +
                   std::to_string(1 + std::count(text.begin(), text.begin() + std::ptrdiff_t(nul), '\n')) + ", column " +
                   std::to_string(nul - (line_start == std::string::npos ? 0 : line_start + 1) + 1) +
                   (nul == 0 ? " (the file starts with one: not a capture)" : ""));
  }
  json j;
  // A text shorter than two bytes a value cannot pass the limit on values: it is built as it is counted, in one pass.
  // A longer one is counted first, so that 60 MB of numbers is refused in a second, not after it is built.
  const bool one_pass = text.size() < 2 * kMaxCaptureValues;
  JsonLimits limits(r, one_pass ? &j : nullptr);
  std::string error;
  try {
    if (!json::sax_parse(text, &limits))
      error = limits.error.empty() ? "not valid JSON" : limits.error;
    else if (!one_pass)
      j = json::parse(text);  // within the limits: built in memory now
  } catch (const json::exception& e) {
    error = e.what();
  }
  if (!error.empty()) {
    // Python's json module writes a NaN or an infinity as a bare word, which JSON does not have: say so, and where.
    const size_t at = std::min<size_t>(limits.byte > 0 ? limits.byte - 1 : 0, text.size());
    const std::string near = text.substr(at > 9 ? at - 9 : 0, 18);
    for (const char* word : {"NaN", "Infinity"})
      if (near.find(word) != std::string::npos)
        r.fail("", std::string("not valid JSON: ") + word + " at line " +
                       std::to_string(1 + std::count(text.begin(), text.begin() + std::ptrdiff_t(at), '\n')) +
                       " (JSON has no NaN or Infinity: a measurement that failed?)");
    r.fail("", "not valid JSON: " + explain(error));
  }
  if (!j.is_object()) r.fail("", "expected a JSON object at the top level");
  return j;
}

Capture capture_from_json(const json& j, const Reader& r) {
  Capture c;
  c.schema = r.str(j, "", "schema");
  if (c.schema != kCaptureSchema)
    r.fail("schema", "unknown schema " + Reader::quote(c.schema) + " (this gemmscope reads \"" + kCaptureSchema + "\")");
  c.recorded_at = r.str(j, "", "recorded_at");
  c.tool = r.str(j, "", "tool");
  c.device = read_device(r, r.field(j, "", "device"));

  const json& peaks = r.array(j, "", "peaks");
  for (size_t i = 0; i < peaks.size(); ++i) {
    const std::string w = Reader::at("peaks", i);
    c.peaks.push_back({r.str(peaks[i], w, "name"), r.number(peaks[i], w, "value", 0, kMaxRate), r.str(peaks[i], w, "unit"),
                       r.str(peaks[i], w, "source")});
  }
  const json& runs = r.array(j, "", "runs");
  for (size_t i = 0; i < runs.size(); ++i) {
    const std::string w = Reader::at("runs", i);
    const json& x = runs[i];
    RunRecord run;
    run.kernel = r.str(x, w, "kernel");
    run.m = int(r.integer(x, w, "m", 1, kMaxGemmDim));
    run.n = int(r.integer(x, w, "n", 1, kMaxGemmDim));
    run.k = int(r.integer(x, w, "k", 1, kMaxGemmDim));
    run.dtype = r.str(x, w, "dtype");
    run.median_ms = r.number(x, w, "median_ms", 0, kMaxMs);
    run.tflops = r.number(x, w, "tflops", 0, kMaxRate);
    run.cublas_tflops = r.number(x, w, "cublas_tflops", 0, kMaxRate);
    run.rel_err = r.field(x, w, "rel_err").is_null() ? std::numeric_limits<double>::quiet_NaN()
                                                     : r.number(x, w, "rel_err", 0, 1e30);
    const json& samples = r.array(x, w, "samples_ms");
    for (size_t s = 0; s < samples.size(); ++s) {
      run.samples_ms.push_back(r.as_number(samples[s], Reader::at(w + ".samples_ms", s), 0, kMaxMs));
    }
    if (x.contains("cublas_paired")) {
      if (!x["cublas_paired"].is_boolean()) r.fail(w + ".cublas_paired", "expected true or false");
      run.cublas_paired = x["cublas_paired"].get<bool>();
    }
    c.runs.push_back(std::move(run));
  }
  const json& layouts = r.array(j, "", "layouts");
  for (size_t i = 0; i < layouts.size(); ++i) c.layouts.push_back(read_layout(r, layouts[i], Reader::at("layouts", i)));

  // Records of one kernel, at most: a view draws all of a kernel's records, so more would cost it minutes and
  // gigabytes. Four times the most the bundled capture holds (16384 blocks of one launch, 8192 stage spans,
  // 768 shared and 128 global accesses).
  std::map<std::string, size_t> per_kernel[4];
  auto too_many = [&](const std::string& w, size_t most, const char* what, const std::string& kernel) {
    r.fail(w, "more than " + std::to_string(most) + " " + what + " of kernel " + Reader::quote(kernel));
  };
  auto count = [&](int list, const std::string& kernel, const std::string& w, size_t most, const char* what) {
    if (++per_kernel[list][kernel] > most) too_many(w, most, what, kernel);
  };
  // A lane's entry of a traced access, named only in an error (32 names a record, by the ten thousand otherwise).
  const auto lane_at = [](const std::string& list, size_t lane) {
    return [&list, lane](const char*) { return Reader::at(list, lane); };
  };
  const json& smem = r.array(j, "", "smem");
  for (size_t i = 0; i < smem.size(); ++i) {
    const std::string w = Reader::at("smem", i);
    const json& x = smem[i];
    SmemAccess s;
    s.kernel = r.str(x, w, "kernel");
    count(0, s.kernel, w, 4096, "shared-memory accesses");
    s.site = r.str(x, w, "site");
    s.warp = int(r.integer(x, w, "warp", 0, 1024));
    s.iteration = int(r.integer(x, w, "iteration", -1, 1 << 30));  // -1: the epilogue
    s.kind = r.str(x, w, "kind");
    s.width = int(r.integer(x, w, "width", 1, 16));
    if (s.width != 2 && s.width != 4 && s.width != 8 && s.width != 16)  // what an LSU access moves a lane
      r.fail(w + ".width", "expected 2, 4, 8 or 16 (bytes per lane), got " + std::to_string(s.width));
    const json& addr = r.array(x, w, "addr");
    if (addr.size() != 32) r.fail(w + ".addr", "expected 32 entries (one per lane), got " + std::to_string(addr.size()));
    const std::string lanes = w + ".addr";
    // An offset in shared memory, aligned to its width as the hardware requires: `banks` refuses the same offsets,
    // and the bank view drew a lane at 999999999 as "conflict-free", a 4-byte word across banks 31 and 0.
    for (size_t lane = 0; lane < 32; ++lane)
      if (!addr[lane].is_null()) {
        const int64_t a = r.as_int(addr[lane], lane_at(lanes, lane), "", 0, int64_t(kMaxSmemBytes) - s.width);
        if (a % s.width != 0)
          r.fail(Reader::at(lanes, lane), std::to_string(a) + " is not a multiple of the record's width (" +
                                              std::to_string(s.width) + " bytes)");
        s.addr[lane] = uint32_t(a);
      }
    c.smem.push_back(std::move(s));
  }
  // "gmem" arrived after the first captures: a file without it has no traced global accesses.
  if (j.contains("gmem")) {
    const json& gmem = r.array(j, "", "gmem");
    for (size_t i = 0; i < gmem.size(); ++i) {
      const std::string w = Reader::at("gmem", i);
      const json& x = gmem[i];
      GmemAccess g;
      g.kernel = r.str(x, w, "kernel");
      count(1, g.kernel, w, 4096, "global-memory accesses");
      g.site = r.str(x, w, "site");
      g.warp = int(r.integer(x, w, "warp", 0, 1024));
      g.iteration = int(r.integer(x, w, "iteration", -1, 1 << 30));
      g.kind = r.str(x, w, "kind");
      if (g.kind != "load" && g.kind != "store" && g.kind != "cp.async")
        r.fail(w + ".kind", "expected \"load\", \"store\" or \"cp.async\"");
      g.width = int(r.integer(x, w, "width", 1, 16));
      const std::string m = r.str(x, w, "matrix");
      if (m != "A" && m != "B" && m != "C" && m != "?") r.fail(w + ".matrix", "expected \"A\", \"B\", \"C\" or \"?\"");
      g.matrix = m[0];
      const json& off = r.array(x, w, "offset");
      if (off.size() != 32) r.fail(w + ".offset", "expected 32 entries (one per lane), got " + std::to_string(off.size()));
      const std::string lanes = w + ".offset";
      for (size_t lane = 0; lane < 32; ++lane)
        if (!off[lane].is_null())
          g.offset[lane] = r.as_int(off[lane], lane_at(lanes, lane), "", INT64_MIN / 2, INT64_MAX / 2);
      c.gmem.push_back(std::move(g));
    }
  }
  // Block and stage records come by the hundred thousand: a record's name for a message ("blocks[3].records[120]")
  // is spelled out only when it has something wrong (building it for each one was a fifth of reading the bundled
  // capture), and a group's records are counted against the limit at once.
  const auto total = [](const json& groups) {
    size_t n = 0;
    for (const json& g : groups)
      if (g.is_object() && g.contains("records") && g["records"].is_array()) n += g["records"].size();
    return n;
  };
  const auto count_group = [&](int list, const std::string& kernel, const std::string& records, size_t n, size_t most,
                               const char* what) {
    size_t& seen = per_kernel[list][kernel];
    if (seen + n > most) too_many(Reader::at(records, most - seen), most, what, kernel);  // the first one past it
    seen += n;
  };
  const json& blocks = r.array(j, "", "blocks");
  c.blocks.reserve(total(blocks));
  for (size_t g = 0; g < blocks.size(); ++g) {
    const std::string gw = Reader::at("blocks", g);
    const std::string kernel = r.str(blocks[g], gw, "kernel");
    const json& records = r.array(blocks[g], gw, "records");
    const std::string list = gw + ".records";
    count_group(2, kernel, list, records.size(), 65536, "block records");
    for (size_t i = 0; i < records.size(); ++i) {
      const json& x = records[i];
      const auto field = [&](const char* f) { return Reader::at(list, i) + f; };
      if (!x.is_array() || x.size() != 8)
        r.fail(Reader::at(list, i), "expected [launch, bx, by, tile_m, tile_n, smid, start_ns, end_ns]");
      BlockRecord b;
      b.kernel = kernel;
      b.launch = int(r.as_int(x[0], field, "[0] (launch)", 0, INT32_MAX));
      b.bx = int(r.as_int(x[1], field, "[1] (bx)", 0, INT32_MAX));
      b.by = int(r.as_int(x[2], field, "[2] (by)", 0, INT32_MAX));
      // A tile of C: C is at most 2^20 on a side (a run's m and n), so no tile index reaches it.
      b.tile_m = int(r.as_int(x[3], field, "[3] (tile_m)", 0, kMaxGemmDim - 1));
      b.tile_n = int(r.as_int(x[4], field, "[4] (tile_n)", 0, kMaxGemmDim - 1));
      b.smid = int(r.as_int(x[5], field, "[5] (smid)", 0, c.device.sm_count - 1));
      b.start_ns = uint64_t(r.as_int(x[6], field, "[6] (start_ns)"));
      b.end_ns = uint64_t(r.as_int(x[7], field, "[7] (end_ns)"));
      if (b.end_ns < b.start_ns) r.fail(Reader::at(list, i), "end_ns is before start_ns");
      c.blocks.push_back(std::move(b));
    }
  }
  // A launch of R blocks computes a grid of at most R tiles, so no tile index reaches R: a tile far outside (a
  // hand-edited 100000) had stretched the launch-order view's grid until it drew no tile at all.
  // (Each kernel's count is count_group's; the records come group by group, so one look-up a group.)
  {
    const std::string* kernel = nullptr;
    size_t n = 0;
    for (const BlockRecord& b : c.blocks) {
      if (!kernel || *kernel != b.kernel) kernel = &b.kernel, n = per_kernel[2][b.kernel];
      if (size_t(b.tile_m) >= n || size_t(b.tile_n) >= n)
        r.fail("blocks (" + b.kernel + ", launch " + std::to_string(b.launch) + ")",
               "tile (" + std::to_string(b.tile_m) + ", " + std::to_string(b.tile_n) + ") lies outside any grid of its " +
                   std::to_string(n) + " block records");
    }
  }
  const json& stages = r.array(j, "", "stages");
  c.stages.reserve(total(stages));
  for (size_t g = 0; g < stages.size(); ++g) {
    const std::string gw = Reader::at("stages", g);
    const std::string kernel = r.str(stages[g], gw, "kernel");
    const json& records = r.array(stages[g], gw, "records");
    const std::string list = gw + ".records";
    count_group(3, kernel, list, records.size(), 32768, "stage records");
    for (size_t i = 0; i < records.size(); ++i) {
      const json& x = records[i];
      const auto field = [&](const char* f) { return Reader::at(list, i) + f; };
      if (!x.is_array() || x.size() != 5 || !x[2].is_string())
        r.fail(Reader::at(list, i), "expected [block, warp, \"stage\", start, end]");
      StageRecord s;
      s.kernel = kernel;
      s.block = int(r.as_int(x[0], field, "[0] (block)", 0, INT32_MAX));
      s.warp = int(r.as_int(x[1], field, "[1] (warp)", 0, 1024));
      s.stage = x[2].get<std::string>();
      if (s.stage.size() > 200)
        r.fail(field("[2] (stage)"), std::to_string(s.stage.size()) + " characters, more than a stage's 200");
      s.start = uint64_t(r.as_int(x[3], field, "[3] (start)"));
      s.end = uint64_t(r.as_int(x[4], field, "[4] (end)"));
      if (s.end < s.start) r.fail(Reader::at(list, i), "end is before start");  // as a block record's
      c.stages.push_back(std::move(s));
    }
  }
  // "l2" and "smem_price" are optional: measured by other tools and attached by `record`.
  if (j.contains("l2")) {
    const json& l2 = r.array(j, "", "l2");
    for (size_t i = 0; i < l2.size(); ++i) {
      const std::string w = Reader::at("l2", i);
      L2Record l;
      l.kernel = r.str(l2[i], w, "kernel");
      l.m = int(r.integer(l2[i], w, "m", 1, kMaxGemmDim));
      l.n = int(r.integer(l2[i], w, "n", 1, kMaxGemmDim));
      l.k = int(r.integer(l2[i], w, "k", 1, kMaxGemmDim));
      l.hit_pct = r.number(l2[i], w, "hit_pct");
      if (!(l.hit_pct >= 0 && l.hit_pct <= 100)) r.fail(w + ".hit_pct", "expected a percentage, 0 to 100");
      l.dram_read_bytes = r.number(l2[i], w, "dram_read_bytes", 0, 1e18);
      l.duration_ns = r.number(l2[i], w, "duration_ns", 0, 1e15);
      if (!(l.dram_read_bytes >= 0) || !(l.duration_ns > 0)) r.fail(w, "expected bytes >= 0 and a duration > 0");
      c.l2.push_back(std::move(l));
    }
  }
  if (j.contains("smem_price")) {
    const json& price = r.array(j, "", "smem_price");
    for (size_t i = 0; i < price.size(); ++i) {
      const std::string w = Reader::at("smem_price", i);
      SmemPrice p;
      p.width = int(r.integer(price[i], w, "width", 1, 16));
      p.stride_bytes = int(r.integer(price[i], w, "stride_bytes", 0, 1 << 20));
      p.warps = int(r.integer(price[i], w, "warps", 1, 64));
      p.cycles = r.number(price[i], w, "cycles");
      if (!(p.cycles > 0 && p.cycles < 1e6)) r.fail(w + ".cycles", "expected cycles between 0 and a million");
      c.smem_price.push_back(p);
    }
  }
  if (j.contains("series")) {
    const json& series = r.array(j, "", "series");
    for (size_t i = 0; i < series.size(); ++i) {
      const std::string w = Reader::at("series", i);
      SeriesPoint p;
      p.t = r.number(series[i], w, "t", 0, 1e9);
      p.tflops = r.number(series[i], w, "tflops", 0, kMaxRate);
      p.cublas_tflops = r.number(series[i], w, "cublas_tflops", 0, kMaxRate);
      p.sm_mhz = int(r.integer(series[i], w, "sm_mhz", 0, 100000));
      p.kernel = r.str(series[i], w, "kernel");
      if (!(p.t >= 0) || !(p.tflops >= 0) || !(p.cublas_tflops >= 0)) r.fail(w, "expected t, tflops and cublas_tflops >= 0");
      if (i > 0 && p.t < c.series.back().t) r.fail(w + ".t", "the series goes back in time");
      c.series.push_back(std::move(p));
    }
  }
  if (j.contains("merged")) {
    const json& merged = r.array(j, "", "merged");
    static const std::set<std::string> kLists = {"runs", "smem", "gmem", "blocks", "stages", "l2"};
    for (size_t i = 0; i < merged.size(); ++i) {
      const std::string w = Reader::at("merged", i);
      MergedList m;
      m.kernel = r.str(merged[i], w, "kernel");
      m.list = r.str(merged[i], w, "list");
      if (!kLists.count(m.list)) r.fail(w + ".list", "expected runs, smem, gmem, blocks, stages or l2");
      m.recorded_at = r.str(merged[i], w, "recorded_at");
      if (!iso_day(m.recorded_at)) r.fail(w + ".recorded_at", "expected an ISO 8601 date, YYYY-MM-DD...");
      c.merged.push_back(std::move(m));
    }
  }
  rename_old_variants(&c);
  return c;
}

}  // namespace

Capture parse_capture(const std::string& text, const std::string& name) {
  const Reader r(name);
  return capture_from_json(parse_limited(text, r), r);
}

namespace {

// A capture's or a bench JSON's text, at most a capture's size; what stops it is a CaptureError.
std::string read_limited(const std::string& path) {
  try {
    return read_file(path, kMaxCaptureBytes);
  } catch (const std::exception& e) {
    throw CaptureError(e.what());
  }
}

}  // namespace

namespace {

// Whether `name` is longer than `tail` and ends with it.
bool ends_with(const std::string& name, const char* tail) {
  const size_t n = std::strlen(tail);
  return name.size() > n && name.compare(name.size() - n, n, tail) == 0;
}

}  // namespace

bool is_capture_file_name(const std::string& name) { return ends_with(name, ".json") || ends_with(name, ".json.gz"); }

Capture read_capture(const std::string& path) { return parse_capture(read_limited(path), path); }

MeasuredFile parse_measured(const std::string& text, const std::string& name) {
  const Reader r(name);
  const json j = parse_limited(text, r);
  MeasuredFile out;
  if (j.contains("schema")) {  // a capture: its runs, each ratio worked out as the throughput view does
    const Capture c = capture_from_json(j, r);
    out.capture = true;
    out.device = c.device.name;
    out.date = recorded_days(c);  // a merged capture's span ("2026-11-26 to 2026-11-28"), as its banner says
    // Paired where every run timed beside cuBLAS says so (the ratio-over-size picture said "cuBLAS once per size"
    // of a capture whose runs were all paired).
    out.cublas_paired = std::any_of(c.runs.begin(), c.runs.end(), [](const RunRecord& x) { return x.cublas_tflops > 0; }) &&
                        std::all_of(c.runs.begin(), c.runs.end(),
                                    [](const RunRecord& x) { return x.cublas_tflops <= 0 || x.cublas_paired; });
    for (const RunRecord& run : c.runs)
      out.runs.push_back({run.kernel, run.dtype, run.m, run.n, run.k, run.tflops, run.cublas_tflops,
                          run.cublas_tflops > 0 ? run.tflops / run.cublas_tflops : 0,
                          std::isfinite(run.rel_err) && run.tflops > 0});
    return out;
  }
  if (!j.contains("results")) r.fail("", "neither a capture (no \"schema\") nor a bench JSON (no \"results\")");
  const json& device = r.field(j, "", "device");
  out.device = r.str(device, "device", "name");
  if (device.contains("date")) out.date = r.str(device, "device", "date").substr(0, 10);
  if (j.contains("cublas_timing")) out.cublas_paired = r.str(j, "", "cublas_timing").rfind("paired", 0) == 0;
  const json& results = r.array(j, "", "results");
  if (results.size() > kMaxBenchResults)
    r.fail("results", std::to_string(results.size()) + " rows, more than the " + std::to_string(kMaxBenchResults) +
                          " a bench JSON may have");
  for (size_t i = 0; i < results.size(); ++i) {
    const std::string w = Reader::at("results", i);
    const json& x = results[i];
    Measured m;
    m.kernel = r.str(x, w, "kernel");
    m.dtype = r.str(x, w, "dtype");
    m.m = int(r.integer(x, w, "m", 1, kMaxGemmDim));
    m.n = int(r.integer(x, w, "n", 1, kMaxGemmDim));
    m.k = int(r.integer(x, w, "k", 1, kMaxGemmDim));
    m.tflops = r.number(x, w, "tflops", 0, kMaxRate);
    m.cublas_tflops = r.number(x, w, "cublas_tflops", 0, kMaxRate);
    m.ratio = r.number(x, w, "ratio", 0, 1e3);
    // `bench` writes ratio = tflops / cublas_tflops (0 without cuBLAS); anything else was edited or damaged.
    const double want = m.cublas_tflops > 0 ? m.tflops / m.cublas_tflops : 0;
    if (std::fabs(m.ratio - want) > 1e-3 * std::max(want, 1e-3))
      r.fail(w + ".ratio", Reader::fmt(m.ratio) + " is not tflops / cublas_tflops (" + Reader::fmt(want) + ")");
    const json& rel_err = r.field(x, w, "rel_err");  // null: `bench` wrote a NaN (no comparison)
    const double err = rel_err.is_null() ? std::numeric_limits<double>::quiet_NaN() : r.number(x, w, "rel_err", 0, 1e30);
    m.ok = std::isfinite(err) && m.tflops > 0;
    if (x.contains("ok")) {
      if (!x["ok"].is_boolean()) r.fail(w + ".ok", "expected true or false");
      m.ok = m.ok && x["ok"].get<bool>();
    }
    out.runs.push_back(std::move(m));
  }
  return out;
}

MeasuredFile read_measured(const std::string& path) { return parse_measured(read_limited(path), path); }

void write_capture(const Capture& c, const std::string& path) {
  const std::string text = capture_to_json(c);
  // Never write what no gemmscope would read back.
  if (text.size() > kMaxCaptureBytes)
    throw CaptureError(path + ": the capture would be " + std::to_string(text.size() >> 20) + " MB, more than the " +
                       std::to_string(kMaxCaptureBytes >> 20) + " MB a capture may have (record fewer kernels)");
  // FILE.gz: gzipped (a fifth of the size; every gemmscope reads either).
  write_file_atomic(path, ends_with(path, ".gz") ? gzip(text) : text);
}

const FragmentLayout* find_layout(const Capture& c, const std::string& op, const std::string& operand,
                                  const std::string& source) {
  for (const FragmentLayout& l : c.layouts)
    if (l.op == op && l.operand == operand && l.source == source) return &l;
  return nullptr;
}

std::string iteration_name(int iteration, bool brief) {
  if (iteration < 0) return "epilogue";
  return (brief ? "k-iter " : "k-iteration ") + std::to_string(iteration);
}

std::vector<const RunRecord*> runs_of(const Capture& c, const std::string& kernel) {
  std::vector<const RunRecord*> out;
  for (const RunRecord& r : c.runs)
    if (r.kernel == kernel) out.push_back(&r);
  std::stable_sort(out.begin(), out.end(), [](const RunRecord* a, const RunRecord* b) {
    return double(a->m) * a->n * a->k < double(b->m) * b->n * b->k;
  });
  return out;
}

namespace {

std::vector<std::string> split(const std::string& line, char sep) {
  std::vector<std::string> out;
  size_t b = 0;
  for (size_t e; (e = line.find(sep, b)) != std::string::npos; b = e + 1) out.push_back(line.substr(b, e - b));
  out.push_back(line.substr(b));
  return out;
}

double table_number(const std::string& s, const std::string& where) {
  char* end = nullptr;
  const double v = std::strtod(s.c_str(), &end);
  if (s.empty() || end != s.c_str() + s.size() || !std::isfinite(v))
    throw CaptureError(where + ": expected a number, got \"" + s.substr(0, 40) + "\"");
  return v;
}

}  // namespace

std::vector<L2Record> parse_l2_csv(const std::string& text, const std::string& name) {
  std::vector<L2Record> out;
  std::vector<std::string> lines = split(text, '\n');
  size_t no = 0;
  for (std::string& line : lines) {
    ++no;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line[0] == '#' || line.rfind("kernel,", 0) == 0) continue;
    const std::string where = name + ":" + std::to_string(no);
    const std::vector<std::string> f = split(line, ',');
    if (f.size() != 7) throw CaptureError(where + ": expected 7 fields (kernel,size,order,l2_hit_pct,dram_read_bytes,duration_ns,tflops)");
    if (f[3].empty() && f[4].empty() && f[5].empty()) continue;  // the script could not profile this one
    L2Record l;
    l.kernel = f[0];
    if (l.kernel.empty() || l.kernel.size() > 200) throw CaptureError(where + ": expected a kernel name");
    if (std::sscanf(f[1].c_str(), "%dx%dx%d", &l.m, &l.n, &l.k) != 3 || l.m <= 0 || l.n <= 0 || l.k <= 0)
      throw CaptureError(where + ": expected a size MxNxK, got \"" + f[1].substr(0, 40) + "\"");
    l.hit_pct = table_number(f[3], where + " (l2_hit_pct)");
    l.dram_read_bytes = table_number(f[4], where + " (dram_read_bytes)");
    l.duration_ns = table_number(f[5], where + " (duration_ns)");
    if (!(l.hit_pct >= 0 && l.hit_pct <= 100) || l.dram_read_bytes < 0 || !(l.duration_ns > 0))
      throw CaptureError(where + ": a hit rate outside 0-100%, negative bytes or no duration");
    out.push_back(std::move(l));
  }
  if (out.empty()) throw CaptureError(name + ": no measurements (expected the CSV tools/l2_ncu.sh writes)");
  return out;
}

std::vector<SmemPrice> parse_smem_price(const std::string& text, const std::string& name) {
  std::vector<SmemPrice> out;
  size_t no = 0;
  for (std::string line : split(text, '\n')) {
    ++no;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line[0] == '#' || line.rfind("width", 0) == 0) continue;
    const std::string where = name + ":" + std::to_string(no);
    const std::vector<std::string> f = split(line, '\t');
    if (f.size() != 4) throw CaptureError(where + ": expected 4 tab-separated fields (width, stride_bytes, warps, cycles)");
    SmemPrice p;
    p.width = int(table_number(f[0], where + " (width)"));
    p.stride_bytes = int(table_number(f[1], where + " (stride_bytes)"));
    p.warps = int(table_number(f[2], where + " (warps)"));
    p.cycles = table_number(f[3], where + " (cycles)");
    if (!smem_width_ok(p.width, SmemOp::Lds) || p.stride_bytes < 0 || p.warps < 1 || p.warps > 64 ||
        !(p.cycles > 0 && p.cycles < 1e6))
      throw CaptureError(where + ": width must be 2, 4, 8 or 16, warps 1-64, cycles positive");
    out.push_back(p);
  }
  if (out.empty()) throw CaptureError(name + ": no measurements (expected bench/bank_probe's price table)");
  return out;
}

std::vector<SeriesPoint> parse_series_csv(const std::string& text, const std::string& name) {
  std::vector<SeriesPoint> out;
  size_t no = 0;
  for (std::string line : split(text, '\n')) {
    ++no;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line.rfind("t_s,", 0) == 0) continue;
    const std::string where = name + ":" + std::to_string(no);
    const size_t quote = line.find('"');
    if (quote == std::string::npos || line.back() != '"' || quote + 1 >= line.size() - 1)
      throw CaptureError(where + ": expected t_s,tflops,cublas_tflops,sm_mhz,\"kernel\"");
    const std::vector<std::string> f = split(line.substr(0, quote), ',');
    if (f.size() != 5 || !f[4].empty()) throw CaptureError(where + ": expected 4 numbers before the kernel");
    SeriesPoint p;
    p.t = table_number(f[0], where + " (t_s)");
    p.tflops = table_number(f[1], where + " (tflops)");
    p.cublas_tflops = table_number(f[2], where + " (cublas_tflops)");
    p.sm_mhz = int(table_number(f[3], where + " (sm_mhz)"));
    p.kernel = line.substr(quote + 1, line.size() - quote - 2);
    if (p.kernel.size() > 300) throw CaptureError(where + ": kernel name longer than 300 characters");
    if (!out.empty() && p.t < out.back().t) throw CaptureError(where + ": the series goes back in time");
    out.push_back(std::move(p));
  }
  if (out.empty()) throw CaptureError(name + ": no points (expected gemmscope --series-log's CSV)");
  return out;
}

const SmemPrice* find_price(const Capture& c, int width, int stride_bytes) {
  const SmemPrice* best = nullptr;
  for (const SmemPrice& p : c.smem_price)
    if (p.width == width && p.stride_bytes == stride_bytes && (!best || p.warps > best->warps)) best = &p;
  return best;
}

std::string utc_now_iso() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::string recorded_day(const Capture& c, const std::string& kernel, const std::string& list) {
  std::string day = c.recorded_at.substr(0, 10);
  for (const MergedList& m : c.merged)
    if (m.kernel == kernel && m.list == list) day = std::max(day, m.recorded_at.substr(0, 10));
  return day;
}

std::string recorded_days(const Capture& c) {
  const std::string first = c.recorded_at.substr(0, 10);
  std::string last = first;
  for (const MergedList& m : c.merged) last = std::max(last, m.recorded_at.substr(0, 10));
  return last == first ? first : first + " to " + last;
}

}  // namespace gs
