#include "app/panels/panel.h"

#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <array>
#include <map>
#include <cctype>
#include <filesystem>
#include <set>
#include <stdexcept>

#include "app/settings.h"
#include "core/files.h"
#include "app/ui.h"
#include "kernels/gemm.h"

namespace gs {

namespace fs = std::filesystem;

void Flow::next(float width) {
  if (line_y_ < 0) line_y_ = ImGui::GetItemRectMin().y;  // the first line: where the title (or nothing yet) is
  if (!first_) {
    ui::note();
    if (fits(width)) ImGui::SameLine();  // on this line where it ends left of the line's edge, else on a new line
  }
  first_ = false;
}

bool Flow::fits(float width) const {
  if (first_) return true;
  const float x = ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x;
  const bool first_line = line_y_ < 0 || ImGui::GetItemRectMin().y <= line_y_ + 1;
  return x + width <= (first_line ? right_ : below_);
}

void Flow::end() {
  if (!first_) ui::note();
}

float Flow::button_w(const char* label) {
  return ImGui::CalcTextSize(label, nullptr, true).x + ImGui::GetStyle().FramePadding.x * 2;
}

float Flow::checkbox_w(const char* label) {
  return ImGui::GetFrameHeight() + ImGui::GetStyle().ItemInnerSpacing.x + ImGui::CalcTextSize(label, nullptr, true).x;
}

float Flow::combo_w(const std::vector<std::string>& items) const {
  float w = 0;
  for (const std::string& s : items) w = std::max(w, ImGui::CalcTextSize(s.c_str()).x);
  const float want = w + ImGui::GetFrameHeight() + ImGui::GetStyle().FramePadding.x * 2 + 2;
  const float line = below_ - ImGui::GetWindowPos().x - ImGui::GetStyle().WindowPadding.x;
  return std::max(ImGui::GetFrameHeight() * 2, std::min(want, line));
}

std::string ViewPanel::ExportDetail(const ViewContext& ctx) const { return file_safe(selected_kernel(ctx.st)); }

std::string write_figure_csv(const std::string& picture, const ViewPanel& p) { return write_figure_csv(picture, p.FigureCsv()); }

std::string figure_csv_path(const std::string& picture) {
  return std::filesystem::path(picture).replace_extension(".csv").string();
}

std::string write_figure_csv(const std::string& picture, const std::string& csv) {
  if (csv.empty()) return "";
  const std::string path = figure_csv_path(picture);
  write_file_atomic(path, csv);
  return path;
}

std::string file_safe(std::string s) {
  // Letters, digits and . - = + stay; '/' (the ladder's) is '-'; anything else a shell would quote or glob
  // (spaces, brackets, parentheses, ':', ',') is one '_', none at the end.
  std::string out;
  for (char c : s) {
    const bool keep = std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '=' || c == '+';
    if (keep || c == '/') out += c == '/' ? '-' : c;
    else if (!out.empty() && out.back() != '_') out += '_';
  }
  while (!out.empty() && out.back() == '_') out.pop_back();
  return out;
}

std::vector<std::string> kernel_names(const Capture* c) {
  std::vector<std::string> names;
  for (const KernelInfo& k : kernel_registry()) names.push_back(k.name);
  if (c)
    for (const RunRecord& r : c->runs)
      if (std::find(names.begin(), names.end(), r.kernel) == names.end()) names.push_back(r.kernel);
  return names;
}

std::string export_stem(const std::string& dir, const std::string& stem, const std::vector<std::string>& exts) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec) && !fs::create_directories(dir, ec))
    throw std::runtime_error("cannot create the exports folder " + dir + ": " + ec.message());
  auto taken = [&](const fs::path& p) {
    for (const std::string& ext : exts)
      if (fs::exists(p.string() + ext, ec)) return true;
    return false;
  };
  fs::path p = fs::path(dir) / stem;
  for (int i = 2; taken(p); ++i) {
    if (i > 9999) throw std::runtime_error("the exports folder " + dir + " holds 9999 pictures called " + stem);
    p = fs::path(dir) / (stem + "_" + std::to_string(i));
  }
  return p.string();
}

std::string export_path(const ViewState& st, const std::string& view, const std::string& detail, const std::string& ext) {
  return export_stem(exports_folder(st), view + (detail.empty() ? "" : "_" + detail), {ext}) + ext;
}

std::string gpu_model(const Capture* c) { return c ? gpu_model(c->device.name) : ""; }

std::string gpu_model(std::string name) {
  // The first word after the vendor, letters and digits only.
  std::string gpu;
  if (name.rfind("NVIDIA ", 0) == 0) name = name.substr(7);
  for (char ch : name) {
    if (ch == ' ') break;
    if (std::isalnum(static_cast<unsigned char>(ch))) gpu += ch;
  }
  return gpu;
}

std::string export_suffix(const Frame& f, const ViewState& st, const std::string& kernel, const std::string& view) {
  if (!f.capture) return "";
  std::string size;
  if (GemmShape s; f.live && parse_shape(st.live_size, &s)) {
    size = s.m == s.n && s.n == s.k ? std::to_string(s.m) : st.live_size;  // a square size as one number
  } else if (!f.live) {
    const bool traced = view == "banks" || view == "gmem" || view == "swizzle" || view == "timeline" || view == "layout";
    if (const RunRecord* r = traced ? main_run(f.capture, kernel, "") : ladder_run(f.capture, kernel, ""))
      size = r->m == r->n && r->n == r->k ? std::to_string(r->m) : shape_label(*r);
  }
  const std::string gpu = gpu_model(f.capture);
  std::string out;
  if (!size.empty()) out += "_" + size;
  if (!gpu.empty()) out += "_" + gpu;
  return out;
}

std::vector<std::string> rung_names(const Capture* c) {
  std::vector<std::string> names;
  for (std::string& n : kernel_names(c))
    if (n.find('[') == std::string::npos) names.push_back(std::move(n));
  return names;
}

std::string traced_kernel(const std::string& kernel) {
  const KernelInfo* k = find_kernel(kernel);
  return k && !k->order_scheme.empty() ? rung_of_variant(kernel) : kernel;
}

const ToggleInfo* find_toggle(const std::string& key) {
  // symbols: the template parameter a toggle sets, and the names the kernels give what follows from it (the padding
  // P of Layout<P>, the warp shape W of WarpShape<kWarpsDown>); a line that uses them through another (L::kLdA) is
  // not marked.
  static const std::map<std::string, ToggleInfo> kToggles = {
      {"order", {"block order", "the same kernel with its blocks launched in another order (none, cutlass:L, "
                                "triton:G);\nthe launch-order view shows the order", {}, {}}},
      {"stages", {"cp.async stages", "the same kernel with a shallower cp.async pipeline: fewer k-tiles in flight "
                                     "while the warps compute", {"timeline"}, {"S"}}},
      {"xor", {"XOR permutation", "off: the same kernel with its tiles' 16-byte chunks stored as they come;\nthe "
                                  "bank view shows its ldmatrix conflicts", {"banks"}, {"kXor"}}},
      {"pad", {"row padding", "off: the same kernel without the padding at the end of each shared row;\nthe bank "
                              "view shows its ldmatrix conflicts", {"banks"}, {"kP", "P"}}},
      {"warp", {"warp tile", "the same kernel with its warps' tiles of C in another shape;\nthe layout view "
                             "draws which lane owns which elements", {"layout", "banks"}, {"kWarpsDown", "W"}}},
      {"ahead", {"fragments ahead", "off: the same kernel with one set of fragments, each k-step loading its "
                                    "fragments and then computing on them", {"timeline"}, {"kAhead"}}},
      {"ldmatrix", {"ldmatrix", "off: the same kernel loading its fragments with plain 32- and 16-bit shared loads",
                    {"banks"}, {"kLdsm"}}},
      {"vec", {"vector copies", "off: the same kernel moving global memory in narrow pieces (the path it takes "
                                "for shapes\nwhose rows are not 16-byte aligned)", {"gmem"}, {"kVec", "kVecB", "kScalar"}}}};
  const auto it = kToggles.find(key);
  return it == kToggles.end() ? nullptr : &it->second;
}

std::vector<std::string> variants_of(const Capture* c, const std::string& rung) {
  std::vector<std::string> out;
  for (std::string& n : kernel_names(c))
    if (n.size() > rung.size() && n.compare(0, rung.size(), rung) == 0 && n[rung.size()] == '[') out.push_back(std::move(n));
  return out;
}

const RunRecord* main_run(const Capture* c, const std::string& kernel, const std::string& dtype) {
  if (!c) return nullptr;
  for (const RunRecord& r : c->runs)
    if (r.kernel == kernel && (dtype.empty() || r.dtype == dtype)) return &r;
  return nullptr;
}

const RunRecord* ladder_run(const Capture* c, const std::string& kernel, const std::string& dtype) {
  const RunRecord* main = main_run(c, kernel, dtype);
  if (!main) return nullptr;
  // The commonest size among the kernels' first runs (one vote per kernel; a tie goes to the size seen first),
  // worked out once per capture and number of runs (a live capture grows).
  struct Known {
    const Capture* capture = nullptr;
    size_t runs = 0;
    const RunRecord* first = nullptr;  // another capture at the same address has other runs
    std::array<int, 3> shape{};
  };
  thread_local Known known;
  if (known.capture != c || known.runs != c->runs.size() || known.first != c->runs.data()) {
    std::vector<std::pair<std::array<int, 3>, int>> votes;
    std::set<std::string> seen;
    for (const RunRecord& r : c->runs) {
      if (!seen.insert(r.kernel).second) continue;
      const std::array<int, 3> shape{r.m, r.n, r.k};
      auto v = std::find_if(votes.begin(), votes.end(), [&](const auto& e) { return e.first == shape; });
      if (v == votes.end()) v = votes.insert(votes.end(), {shape, 0});
      ++v->second;
    }
    const auto top =
        std::max_element(votes.begin(), votes.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
    known = {c, c->runs.size(), c->runs.data(), top->first};  // votes is not empty: main is a run
  }
  for (const RunRecord& r : c->runs)
    if (r.kernel == kernel && r.dtype == main->dtype && std::array<int, 3>{r.m, r.n, r.k} == known.shape) return &r;
  return main;
}

std::vector<std::string> dtypes_of(const Capture* c, const std::string& kernel) {
  std::vector<std::string> out;
  if (c)
    for (const RunRecord& r : c->runs)
      if (r.kernel == kernel && std::find(out.begin(), out.end(), r.dtype) == out.end()) out.push_back(r.dtype);
  return out;
}

std::map<std::string, std::string> family_dtypes(const Capture* c) {
  // Per family, the first dtypes of its rungs with their counts, in ladder order (a tie goes to the earlier).
  std::map<std::string, std::vector<std::pair<std::string, int>>> votes;
  for (const std::string& rung : rung_names(c)) {
    const std::vector<std::string> d = dtypes_of(c, rung);
    if (d.empty()) continue;
    auto& v = votes[family_of(rung)];
    auto e = std::find_if(v.begin(), v.end(), [&](const auto& x) { return x.first == d.front(); });
    if (e == v.end()) e = v.insert(v.end(), {d.front(), 0});
    ++e->second;
  }
  std::map<std::string, std::string> out;
  for (const auto& [family, v] : votes)
    out[family] = std::max_element(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.second < b.second; })
                      ->first;
  return out;
}

std::string headline_dtype(const std::vector<std::string>& dtypes, const std::string& family_dtype, bool* other) {
  if (other) *other = false;
  if (dtypes.empty()) return "";
  if (std::find(dtypes.begin(), dtypes.end(), family_dtype) != dtypes.end()) return family_dtype;
  if (other) *other = !family_dtype.empty();
  return dtypes.front();
}

std::string shape_label(const RunRecord& r) {
  return shape_text({r.m, r.n, r.k});
}

std::string traced_size(const Capture* c, const std::string& kernel) {
  const RunRecord* r = main_run(c, kernel, "");
  return r ? shape_label(*r) : std::string();
}

std::string date_of(const Capture& c) { return c.recorded_at.substr(0, 10); }

std::string family_of(const std::string& kernel) { return kernel.substr(0, kernel.find('/')); }

std::string rung_built_on(const std::string& kernel) {
  const auto& reg = kernel_registry();
  const std::string rung = rung_of_variant(kernel);
  for (size_t i = 0; i < reg.size(); ++i)
    if (reg[i].name == rung) {
      if (!reg[i].builds_on.empty()) return reg[i].builds_on;
      for (size_t j = i; j-- > 0;)
        if (reg[j].family == reg[i].family && reg[j].name.find('[') == std::string::npos) return reg[j].name;
      break;
    }
  return "";
}

std::string rung_beside(const std::vector<std::string>& names, const std::string& kernel) {
  const auto it = std::find(names.begin(), names.end(), kernel);
  if (it == names.end()) return "";
  const auto is_rung = [&](const std::string& n) {
    return n != kernel && n.find('[') == std::string::npos && family_of(n) == family_of(kernel);
  };
  for (auto p = it; p != names.begin();)
    if (is_rung(*--p)) return *p;
  for (auto p = it + 1; p != names.end(); ++p)
    if (is_rung(*p)) return *p;
  return "";
}

std::string selected_kernel(const ViewState& st) {
  if (!st.kernel.empty()) return st.kernel;
  if (find_kernel(kDefaultKernel)) return kDefaultKernel;
  return kernel_registry().empty() ? std::string() : kernel_registry().front().name;
}

}  // namespace gs
