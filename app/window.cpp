#include "app/window.h"

#include <imgui.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <optional>
#include <set>

#include "core/files.h"
#include "core/layout.h"
#include "kernels/gemm.h"
#include "viz/canvas_imgui.h"

namespace gs {
namespace {

const Theme& theme_of(const ViewState& st) { return st.dark ? Theme::Dark() : Theme::Light(); }

ImU32 im_color(Color c) { return IM_COL32(c.r, c.g, c.b, c.a); }

// The kernels the list shows: the registry in ladder order, then any other kernel the capture has
// (a capture recorded by a build with more rungs still shows all of them).
std::vector<std::string> kernel_names(const Capture* c) {
  std::vector<std::string> names;
  for (const KernelInfo& k : kernel_registry()) names.push_back(k.name);
  if (c)
    for (const RunRecord& r : c->runs)
      if (std::find(names.begin(), names.end(), r.kernel) == names.end()) names.push_back(r.kernel);
  return names;
}

// The run a kernel's headline numbers come from: its first for that dtype in the capture, which is
// the size `record --size` measured (a --sweep adds the other sizes after it).
const RunRecord* main_run(const Capture* c, const std::string& kernel, const std::string& dtype) {
  if (!c) return nullptr;
  for (const RunRecord& r : c->runs)
    if (r.kernel == kernel && (dtype.empty() || r.dtype == dtype)) return &r;
  return nullptr;
}

std::vector<std::string> dtypes_of(const Capture* c, const std::string& kernel) {
  std::vector<std::string> out;
  if (c)
    for (const RunRecord& r : c->runs)
      if (r.kernel == kernel && std::find(out.begin(), out.end(), r.dtype) == out.end()) out.push_back(r.dtype);
  return out;
}

std::string shape_label(const RunRecord& r) {
  return std::to_string(r.m) + "x" + std::to_string(r.n) + "x" + std::to_string(r.k);
}

std::string date_of(const Capture& c) { return c.recorded_at.substr(0, 10); }

// Documented layouts are pure functions of the op: each operand the op has (ldmatrix: A only) is
// computed once per op and kept for the session.
const std::array<std::optional<FragmentLayout>, 3>* documented_layouts(const MmaOp& op) {
  static std::map<std::string, std::array<std::optional<FragmentLayout>, 3>> cache;
  if (!op.documented) return nullptr;
  auto it = cache.find(op.name);
  if (it == cache.end()) {
    std::array<std::optional<FragmentLayout>, 3> ls;
    for (Operand o : op_operands(op)) ls[int(o)] = documented_layout(op, o);
    it = cache.emplace(op.name, std::move(ls)).first;
  }
  return &it->second;
}

// A canvas view as an ImGui item: reserves the rect, reports the mouse in canvas coordinates.
struct CanvasItem {
  Rect rect;
  Vec2 mouse{-1e9f, -1e9f};
  bool hovered = false, clicked = false;
};
CanvasItem canvas_item(const char* id, ImVec2 size) {
  CanvasItem item;
  size.x = std::max(size.x, 16.0f);
  size.y = std::max(size.y, 16.0f);
  const ImVec2 p = ImGui::GetCursorScreenPos();
  ImGui::InvisibleButton(id, size);
  item.rect = Rect{{p.x, p.y}, {p.x + size.x, p.y + size.y}};
  item.hovered = ImGui::IsItemHovered();
  item.clicked = ImGui::IsItemClicked(ImGuiMouseButton_Left);
  if (item.hovered) item.mouse = Vec2{ImGui::GetIO().MousePos.x, ImGui::GetIO().MousePos.y};
  return item;
}

void export_svg(const std::string& view, const Frame& f, ViewState& st, const std::string& detail) {
  const std::string path = "gemmscope-" + view + (detail.empty() ? "" : "-" + detail) + ".svg";
  try {
    write_file_atomic(path, view_svg(view, f, st, 1600, 900));
    st.message = "wrote " + path;
  } catch (const std::exception& e) {
    st.message = std::string("export failed: ") + e.what();
  }
}

}  // namespace

const std::vector<ViewName>& view_names() {
  static const std::vector<ViewName> names = {
      {"layout", true},    {"banks", true},     {"swizzle", false}, {"perf", true},
      {"roofline", false}, {"timeline", false}, {"code", false},    {"all", true}};
  return names;
}

bool view_exists(const std::string& name) {
  for (const ViewName& v : view_names())
    if (name == v.name) return v.exists;
  return false;
}

std::string existing_view_names() {
  std::string out;
  for (const ViewName& v : view_names())
    if (v.exists) out += (out.empty() ? "" : ", ") + std::string(v.name);
  return out;
}

std::string selected_kernel(const ViewState& st) {
  if (!st.kernel.empty()) return st.kernel;
  return kernel_registry().empty() ? std::string() : kernel_registry().front().name;
}

PerfViewInput perf_input(const Frame& f, const ViewState& st) {
  PerfViewInput in;
  const Capture* c = f.capture;
  const std::string selected = selected_kernel(st);
  if (c) {
    in.device_label = c->device.name + ", " + std::to_string(c->device.sm_clock_mhz) + " MHz, driver " +
                      c->device.driver + (f.live ? "" : ", recorded " + date_of(*c));
  }
  for (const std::string& name : kernel_names(c)) {
    for (const std::string& dtype : dtypes_of(c, name)) {
      const RunRecord* r = main_run(c, name, dtype);
      if (!r) continue;
      if (in.shape_label.empty()) in.shape_label = shape_label(*r);
      PerfBar b;
      b.kernel = name;
      b.dtype = dtype;
      b.tflops = r->tflops;
      b.cublas_tflops = r->cublas_tflops;
      b.rel_err = r->rel_err;
      b.ok = std::isfinite(r->rel_err) && r->tflops > 0;
      b.selected = name == selected;
      in.bars.push_back(b);
    }
  }
  if (f.live && f.live_state && !f.live_state->series.empty()) {
    // Live: the selected kernel measured back to back, with cuBLAS on the same size beside it.
    PerfSeries k{f.live_state->series_kernel, {}, true}, ref{"cuBLAS, same size", {}, false};
    for (const LivePoint& p : f.live_state->series) {
      k.points.push_back({float(p.t), float(p.tflops)});
      ref.points.push_back({float(p.t), float(p.cublas_tflops)});
    }
    in.series = {k, ref};
    in.series_x_label = "seconds";
  } else if (c) {
    // Replay: TFLOP/s over size for the selected kernel's family (a ladder is read against itself
    // and cuBLAS; all 40-odd curves at once would be unreadable), each curve measured at 2+ sizes.
    const std::string family = selected.substr(0, selected.find('/'));
    std::set<std::string> family_dtypes;
    for (const std::string& name : kernel_names(c)) {
      if (name.substr(0, name.find('/')) != family) continue;
      for (const std::string& dtype : dtypes_of(c, name)) {
        family_dtypes.insert(dtype);
        PerfSeries s{name + " " + dtype, {}, name == selected};
        for (const RunRecord* r : runs_of(*c, name))
          if (r->dtype == dtype && r->m == r->n && r->n == r->k) s.points.push_back({float(r->m), float(r->tflops)});
        if (s.points.size() >= 2) in.series.push_back(std::move(s));
      }
    }
    // cuBLAS of each dtype over the same sizes: the curve every rung is chasing.
    std::map<std::string, std::map<int, double>> cublas;
    for (const RunRecord& r : c->runs)
      if (r.m == r.n && r.n == r.k && r.cublas_tflops > 0) cublas[r.dtype][r.m] = r.cublas_tflops;
    for (const auto& [dtype, by_size] : cublas) {
      if (by_size.size() < 2 || !family_dtypes.count(dtype)) continue;
      PerfSeries s{"cuBLAS " + dtype, {}, false};
      for (const auto& [m, tflops] : by_size) s.points.push_back({float(m), float(tflops)});
      in.series.push_back(std::move(s));
    }
    in.series_x_label = "M = N = K (" + family + ")";
    in.series_log2_x = true;
  }
  return in;
}

LayoutViewInput layout_input(const Frame& f, const ViewState& st) {
  LayoutViewInput in;
  in.op = find_mma_op(st.layout_op);
  if (!in.op) return in;
  if (const auto* doc = documented_layouts(*in.op))
    for (int i = 0; i < 3; ++i) in.documented[i] = (*doc)[i] ? &*(*doc)[i] : nullptr;
  if (in.op->kind == OpKind::Ldmatrix) in.row_suppliers = ldmatrix_rows(*in.op);
  if (f.capture) {
    for (int i = 0; i < 3; ++i)
      in.traced[i] = find_layout(*f.capture, in.op->name, operand_name(Operand(i)), "traced");
    if (in.traced[0] || in.traced[1] || in.traced[2])
      in.traced_from = f.capture->device.name + (f.live ? ", live" : ", " + date_of(*f.capture));
  }
  return in;
}

BanksViewInput banks_input(const Frame& f, const ViewState& st) {
  BanksViewInput in;
  in.kernel = selected_kernel(st);
  in.live = f.live;
  if (!f.capture) return in;
  in.sites = smem_sites(*f.capture, in.kernel);
  in.capture_has_smem = !f.capture->smem.empty();
  if (!in.sites.empty()) in.traced_from = f.capture->device.name + (f.live ? ", live" : ", " + date_of(*f.capture));
  return in;
}

WarpViewInput warp_input(const ViewState& st) {
  WarpViewInput in;
  in.kernel = selected_kernel(st);
  const KernelInfo* k = find_kernel(in.kernel);
  if (!k) return in;
  const WarpTiling& w = k->warps;
  in.block_m = k->block_m, in.block_n = k->block_n, in.block_k = w.block_k;
  in.warps_m = w.warps_m, in.warps_n = w.warps_n, in.warps_k = w.warps_k;
  in.warp_m = w.warp_m, in.warp_n = w.warp_n;
  in.op = w.op;
  in.frag_m = w.frag_m, in.frag_n = w.frag_n, in.frag_k = w.frag_k;
  return in;
}

Rect split_layout(Rect r, const ViewState& st, const WarpViewInput& in, Rect* warps) {
  *warps = Rect{{r.min.x, r.max.y}, r.max};
  if (!st.show_warps) return r;
  const float h = in.described() ? std::round(r.h() * 0.4f) : 34.0f;
  const float top = r.max.y - std::min(h, r.h() * 0.5f);
  *warps = Rect{{r.min.x, top}, r.max};
  return Rect{r.min, {r.max.x, top}};
}

std::string view_svg(const std::string& view, const Frame& f, const ViewState& st, int width, int height) {
  const Theme& t = theme_of(st);
  SvgCanvas svg(float(width), float(height), t.bg);
  const Rect all{{0, 0}, {float(width), float(height)}};
  if (view == "perf") {
    draw_perf_view(svg, all, t, perf_input(f, st));
  } else if (view == "layout") {
    const WarpViewInput wi = warp_input(st);
    Rect warps;
    draw_layout_view(svg, split_layout(all, st, wi, &warps), t, layout_input(f, st), st.layout, {-1e9f, -1e9f},
                     nullptr);
    if (st.show_warps) draw_warp_view(svg, warps, t, wi, st.warp);
  } else if (view == "banks") {
    draw_banks_view(svg, all, t, banks_input(f, st), st.banks, {-1e9f, -1e9f}, nullptr);
  } else if (view == "all") {
    const float top = 28;
    svg.text({12, 6}, f.banner, t.text, 15);
    const float mid = float(width) * 0.42f;
    draw_perf_view(svg, Rect{{0, top}, {mid, float(height)}}, t, perf_input(f, st));
    const WarpViewInput wi = warp_input(st);
    Rect warps;
    draw_layout_view(svg, split_layout(Rect{{mid, top}, {float(width), float(height)}}, st, wi, &warps), t,
                     layout_input(f, st), st.layout, {-1e9f, -1e9f}, nullptr);
    if (st.show_warps) draw_warp_view(svg, warps, t, wi, st.warp);
  }
  return svg.finish();
}

// ---- Panels ----------------------------------------------------------------------------------

void KernelListPanel::Draw(const Frame& f, ViewState& st) {
  const std::string selected = selected_kernel(st);
  const Theme& t = theme_of(st);
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_ScrollY;
  const float list_h = ImGui::GetContentRegionAvail().y * 0.62f;
  if (ImGui::BeginTable("##kernels", 3, flags, ImVec2(0, list_h))) {
    ImGui::TableSetupScrollFreeze(0, 1);
    ImGui::TableSetupColumn("Kernel", ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableSetupColumn("GFLOP/s", ImGuiTableColumnFlags_WidthFixed, ImGui::GetFontSize() * 4.6f);
    ImGui::TableSetupColumn("cuBLAS", ImGuiTableColumnFlags_WidthFixed, ImGui::GetFontSize() * 3.4f);
    ImGui::TableHeadersRow();
    std::string family;
    for (const std::string& name : kernel_names(f.capture)) {
      const KernelInfo* info = find_kernel(name);
      const std::string fam = info ? info->family : name.substr(0, name.find('/'));
      if (fam != family) {
        family = fam;
        ImGui::TableNextRow();
        ImGui::TableSetColumnIndex(0);
        ImGui::TextColored(ImVec4(t.accent.r / 255.f, t.accent.g / 255.f, t.accent.b / 255.f, 1), "%s", fam.c_str());
      }
      const std::vector<std::string> dtypes = dtypes_of(f.capture, name);
      // One row per measured dtype; a kernel not measured yet still gets its row.
      const size_t rows = std::max<size_t>(1, dtypes.size());
      for (size_t i = 0; i < rows; ++i) {
        const RunRecord* r = dtypes.empty() ? nullptr : main_run(f.capture, name, dtypes[i]);
        ImGui::TableNextRow();
        ImGui::TableSetColumnIndex(0);
        ImGui::PushID((name + std::to_string(i)).c_str());
        const std::string label = "  " + name.substr(name.find('/') + 1) + (r ? "  " + r->dtype : "");
        if (ImGui::Selectable(label.c_str(), name == selected, ImGuiSelectableFlags_SpanAllColumns)) st.kernel = name;
        if (ImGui::IsItemHovered() && info) ImGui::SetTooltip("%s\n%s", info->title.c_str(), info->adds.c_str());
        ImGui::PopID();
        ImGui::TableSetColumnIndex(1);
        if (r) ImGui::Text("%8.0f", r->tflops * 1000.0);
        else ImGui::TextDisabled("%s", f.live ? "..." : "-");
        ImGui::TableSetColumnIndex(2);
        if (r && r->cublas_tflops > 0) ImGui::Text("%5.1f%%", 100.0 * r->tflops / r->cublas_tflops);
      }
    }
    ImGui::EndTable();
  }
  // What the selected rung adds: the first lines of its source file, as the registry holds them.
  if (const KernelInfo* info = find_kernel(selected)) {
    ImGui::Separator();
    ImGui::TextUnformatted(info->name.c_str());
    ImGui::PushTextWrapPos(0);
    ImGui::TextUnformatted(info->title.c_str());
    ImGui::TextDisabled("%s", info->adds.c_str());
    ImGui::Text("block tile %dx%d, %d threads", info->block_m, info->block_n, info->threads);
    if (!info->shape_rule.empty()) ImGui::TextDisabled("shapes: %s", info->shape_rule.c_str());
    ImGui::PopTextWrapPos();
  }
}

void PerfPanel::Draw(const Gui& gui, const Frame& f, ViewState& st) {
  ImGui::TextUnformatted("Throughput");
  ImGui::SameLine(ImGui::GetContentRegionAvail().x - ImGui::CalcTextSize("Export SVG").x - 8);
  if (ImGui::SmallButton("Export SVG")) export_svg("perf", f, st, "");
  const CanvasItem item = canvas_item("##perf", ImGui::GetContentRegionAvail());
  ImGuiCanvas canvas(ImGui::GetWindowDrawList(), gui.sans, gui.mono, gui.bold);
  draw_perf_view(canvas, item.rect, theme_of(st), perf_input(f, st));
}

void LayoutPanel::Draw(const Gui& gui, const Frame& f, ViewState& st) {
  ImGui::TextUnformatted("Fragment layout");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 13);
  if (ImGui::BeginCombo("##op", st.layout_op.c_str())) {
    for (const MmaOp& op : mma_ops()) {
      if (ImGui::Selectable(op.name.c_str(), op.name == st.layout_op)) {
        st.layout_op = op.name;
        st.layout.highlight_lane = -1;
      }
    }
    ImGui::EndCombo();
  }
  ImGui::SameLine();
  ImGui::Checkbox("documented", &st.layout.show_documented);
  ImGui::SameLine();
  ImGui::Checkbox("traced", &st.layout.show_traced);
  ImGui::SameLine();
  const WarpViewInput wi = warp_input(st);
  // The kernel's name where the toolbar has room for it (the view's heading names it anyway).
  const std::string full = "warp tiling of " + wi.kernel;
  const float room = ImGui::GetContentRegionAvail().x - ImGui::CalcTextSize("Export SVG").x -
                     ImGui::GetFontSize() * 10;
  ImGui::Checkbox(((ImGui::CalcTextSize(full.c_str()).x < room ? full : std::string("warp tiling")) + "###warps").c_str(),
                  &st.show_warps);
  ImGui::SameLine();
  const int n_warps = wi.described() ? wi.warps_m * wi.warps_n * std::max(1, wi.warps_k) : 1;
  st.warp = std::clamp(st.warp, 0, n_warps - 1);
  if (st.show_warps && wi.described() &&
      ImGui::GetContentRegionAvail().x - ImGui::CalcTextSize("Export SVG").x > ImGui::GetFontSize() * 7) {
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6);
    ImGui::SliderInt("##warp", &st.warp, 0, n_warps - 1, "warp %d");
    ImGui::SameLine();
  }
  if (st.layout.highlight_lane >= 0) {
    ImGui::Text("lane %d", st.layout.highlight_lane);
    ImGui::SameLine();
    if (ImGui::SmallButton("clear")) st.layout.highlight_lane = -1;
    ImGui::SameLine();
  }
  ImGui::SameLine(ImGui::GetContentRegionAvail().x + ImGui::GetCursorPosX() - ImGui::CalcTextSize("Export SVG").x - 8);
  std::string detail = st.layout_op;
  if (ImGui::SmallButton("Export SVG")) export_svg("layout", f, st, detail);

  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const ImVec2 p = ImGui::GetCursorScreenPos();
  Rect warps;
  const Rect top = split_layout(Rect{{p.x, p.y}, {p.x + avail.x, p.y + avail.y}}, st, wi, &warps);
  const CanvasItem item = canvas_item("##layout", ImVec2(top.w(), top.h()));
  ImGuiCanvas canvas(ImGui::GetWindowDrawList(), gui.sans, gui.mono, gui.bold);
  if (st.show_warps) {
    if (canvas_item("##warps", ImVec2(warps.w(), warps.h())).clicked) st.warp = (st.warp + 1) % n_warps;  // next warp
    draw_warp_view(canvas, warps, theme_of(st), wi, st.warp);
  }
  hover_ = LayoutHover{};
  const LayoutViewInput in = layout_input(f, st);
  if (!in.op) {
    canvas.text(item.rect.min + Vec2{10, 10}, "unknown op " + st.layout_op, theme_of(st).bad, 16);
    return;
  }
  draw_layout_view(canvas, item.rect, theme_of(st), in, st.layout, item.mouse, &hover_);
  if (item.hovered && hover_.valid && !hover_.holders.empty()) {
    ImGui::BeginTooltip();
    const Operand o = Operand(hover_.operand);
    ImGui::Text("%s[%d][%d]  (%s)", operand_name(o), hover_.row, hover_.col, hover_.traced ? "traced" : "documented");
    for (const LayoutCell& h : hover_.holders) {
      const RegSlot reg = register_of(*in.op, o, h.elem);
      ImGui::Text("lane %2d  elem %2d  reg %d%s", h.lane, h.elem, reg.reg,
                  reg.parts > 1 ? (reg.part == 0 ? " (low)" : reg.parts == 2 ? " (high)" : " (byte)") : "");
    }
    ImGui::TextDisabled("click: highlight this lane in every operand");
    ImGui::EndTooltip();
    if (item.clicked) {
      const int lane = hover_.holders.front().lane;
      st.layout.highlight_lane = st.layout.highlight_lane == lane ? -1 : lane;
    }
  } else if (item.clicked) {
    st.layout.highlight_lane = -1;
  }
}

void BanksPanel::Draw(const Gui& gui, const Frame& f, ViewState& st) {
  const std::string kernel = selected_kernel(st);
  const size_t records = f.capture ? f.capture->smem.size() : 0;
  if (f.capture != input_capture_ || records != input_records_ || f.live != input_live_ || input_.kernel != kernel) {
    input_ = banks_input(f, st);
    input_capture_ = f.capture, input_records_ = records, input_live_ = f.live;
  }
  const BanksViewInput& in = input_;
  // A new rung starts over at its worst access, except that a site of the same name stays selected:
  // stepping from 01_vectorized to 02_conflict_free keeps "As load (frag)" in view, the access that changed.
  if (kernel != kernel_) {
    kernel_ = kernel;
    st.banks = BanksViewState{};
    for (size_t i = 0; i < in.sites.size(); ++i)
      if (in.sites[i].name == site_name_) st.banks.site = int(i);
  }
  BanksPick pick = banks_pick(in, st.banks);
  site_name_ = pick.site >= 0 ? in.sites[pick.site].name : std::string();
  ImGui::TextUnformatted("Bank conflicts");
  // Toolbar widgets left to right while they fit before the export button (a narrow panel drops the
  // last ones; the site list in the view selects sites too).
  const float em = ImGui::GetFontSize(), export_w = ImGui::CalcTextSize("Export SVG").x + em;
  auto fits = [&](float w) {
    ImGui::SameLine();
    return ImGui::GetContentRegionAvail().x >= w + export_w;
  };
  if (pick.access && fits(em * 11)) {
    ImGui::SetNextItemWidth(em * 11);
    if (ImGui::BeginCombo("##site", in.sites[pick.site].name.c_str())) {
      for (size_t i = 0; i < in.sites.size(); ++i) {
        ImGui::PushID(int(i));
        if (ImGui::Selectable(in.sites[i].name.c_str(), int(i) == pick.site)) {
          st.banks.site = int(i);
          st.banks.access = -1;
        }
        ImGui::PopID();
      }
      ImGui::EndCombo();
    }
    // Which execution: warp and k-iteration where the capture has several, then which of that warp's
    // executions of the site (program order), 1-based as the caption counts them.
    if (pick.warps.size() > 1 && fits(em * 5)) {
      ImGui::SetNextItemWidth(em * 5);
      int w = pick.warp;
      if (ImGui::SliderInt("##bwarp", &w, pick.warps.front(), pick.warps.back(), "warp %d")) {
        st.banks.warp = w;
        st.banks.iteration = pick.iteration;
        st.banks.access = -1;
      }
    }
    if (pick.iterations.size() > 1 && fits(em * 5)) {
      ImGui::SetNextItemWidth(em * 5);
      int it = pick.iteration;
      if (ImGui::SliderInt("##biter", &it, pick.iterations.front(), pick.iterations.back(), "k-iter %d")) {
        st.banks.iteration = it;
        st.banks.warp = pick.warp;
        st.banks.access = -1;
      }
    }
    if (pick.count > 1 && fits(em * 11)) {
      ImGui::SetNextItemWidth(em * 8);
      int n = pick.access->index + 1;
      const std::string fmt = "access %d of " + std::to_string(pick.count);
      if (ImGui::SliderInt("##baccess", &n, 1, pick.count, fmt.c_str())) {
        st.banks.site = pick.site, st.banks.warp = pick.warp, st.banks.iteration = pick.iteration;
        st.banks.access = n - 1;
      }
      ImGui::SameLine();
      if (ImGui::SmallButton("worst")) st.banks.access = -1;
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("the execution of this site with the most conflicts");
    }
  }
  if (st.banks.highlight_lane >= 0 && fits(em * 6)) {
    ImGui::Text("lane %d", st.banks.highlight_lane);
    ImGui::SameLine();
    if (ImGui::SmallButton("clear##blane")) st.banks.highlight_lane = -1;
  }
  ImGui::SameLine(ImGui::GetContentRegionAvail().x + ImGui::GetCursorPosX() - ImGui::CalcTextSize("Export SVG").x - 8);
  if (ImGui::SmallButton("Export SVG##banks")) {
    std::string detail = kernel;
    std::replace(detail.begin(), detail.end(), '/', '_');  // a file name, not a folder
    export_svg("banks", f, st, detail);
  }
  pick = banks_pick(in, st.banks);  // the widgets may have changed it
  site_name_ = pick.site >= 0 ? in.sites[pick.site].name : std::string();

  const CanvasItem item = canvas_item("##banks", ImGui::GetContentRegionAvail());
  ImGuiCanvas canvas(ImGui::GetWindowDrawList(), gui.sans, gui.mono, gui.bold);
  draw_banks_view(canvas, item.rect, theme_of(st), in, st.banks, item.mouse, &hover_);
  if (!item.hovered || !pick.access) return;
  const SmemSite& site = in.sites[pick.site];
  const SmemAccess& a = pick.access->access;
  const BankReport& rep = pick.access->report;
  const int width = site.op == SmemOp::Lds ? site.width : 16;  // ldmatrix rows are 16 bytes
  auto lane_line = [&](int lane) {
    if (!a.addr[lane]) {
      ImGui::Text("lane %2d  inactive (took no part)", lane);
      return;
    }
    const uint32_t o = *a.addr[lane], last = o + uint32_t(width) - 1;
    if (o / 4 == last / 4)
      ImGui::Text("lane %2d  byte offset %u (bytes %u-%u), word %u, bank %d", lane, o, o, last, o / 4, bank_of(o));
    else
      ImGui::Text("lane %2d  byte offset %u (bytes %u-%u), words %u-%u, banks %d-%d", lane, o, o, last, o / 4, last / 4,
                  bank_of(o), bank_of(last));
  };
  if (hover_.site >= 0) {
    const SmemSite& s = in.sites[hover_.site];
    ImGui::BeginTooltip();
    ImGui::Text("%s: %s, %d bytes per lane", s.name.c_str(), s.op == SmemOp::Lds ? s.kind.c_str() : smem_op_name(s.op),
                s.width);
    ImGui::Text("%zu accesses: %d wavefronts, ideal %d, %d conflicts", s.accesses.size(), s.wavefronts, s.ideal,
                s.conflicts);
    ImGui::TextDisabled("click: show its worst access");
    ImGui::EndTooltip();
    if (item.clicked) {
      st.banks.site = hover_.site;
      st.banks.access = -1;
      st.banks.highlight_lane = -1;
    }
  } else if (hover_.wavefront >= 0 && hover_.wavefront < int(rep.wavefront_banks.size())) {
    const BankSlot& slot = rep.wavefront_banks[hover_.wavefront][hover_.bank];
    const int phase = rep.wavefront_phase[hover_.wavefront], n = phase_lanes(site.width, site.op);
    ImGui::BeginTooltip();
    ImGui::Text("wavefront %d (phase %d: lanes %d-%d), bank %d", hover_.wavefront, phase, phase * n, phase * n + n - 1,
                hover_.bank);
    if (slot.lanes.empty()) {
      ImGui::TextDisabled("this bank reads nothing in this wavefront");
    } else {
      ImGui::Text("word %u (bytes %u-%u), for %s", slot.word, slot.word * 4, slot.word * 4 + 3,
                  slot.lanes.size() == 1 ? "one lane" : "several lanes (a broadcast)");
      for (size_t i = 0; i < slot.lanes.size() && i < 8; ++i) lane_line(slot.lanes[i]);
      if (slot.lanes.size() > 8) ImGui::TextDisabled("... and %zu more lanes", slot.lanes.size() - 8);
      ImGui::TextDisabled("click: highlight lane %d", slot.lanes.front());
    }
    ImGui::EndTooltip();
    if (item.clicked)
      st.banks.highlight_lane =
          slot.lanes.empty() || st.banks.highlight_lane == slot.lanes.front() ? -1 : slot.lanes.front();
  } else if (hover_.lane >= 0) {
    ImGui::BeginTooltip();
    lane_line(hover_.lane);
    std::string waves;
    for (size_t w = 0; w < rep.wavefront_lanes.size(); ++w)
      for (int l : rep.wavefront_lanes[w])
        if (l == hover_.lane) waves += (waves.empty() ? "" : ", ") + std::to_string(w);
    if (!waves.empty()) ImGui::Text("served in wavefront %s", waves.c_str());
    else if (a.addr[hover_.lane]) ImGui::TextDisabled("%s reads no address from this lane", smem_op_name(site.op));
    ImGui::TextDisabled("click: highlight this lane");
    ImGui::EndTooltip();
    if (item.clicked) st.banks.highlight_lane = st.banks.highlight_lane == hover_.lane ? -1 : hover_.lane;
  } else if (item.clicked) {
    st.banks.highlight_lane = -1;
  }
}

// ---- The window ------------------------------------------------------------------------------

void MainWindow::DrawBanner(const Frame& f, ViewState& st) {
  const Theme& t = theme_of(st);
  const bool replay = !f.live;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 p = ImGui::GetCursorScreenPos();
  const float h = ImGui::GetFrameHeight() + 4;
  const float w = ImGui::GetContentRegionAvail().x;
  dl->AddRectFilled(p, ImVec2(p.x + w, p.y + h), im_color((replay ? t.warn : t.good).with_alpha(60)), 4);
  ImGui::SetCursorScreenPos(ImVec2(p.x + 8, p.y + 2));
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted(f.banner.c_str());
  if (f.live_state) {
    if (!f.live_state->status.empty()) {
      ImGui::SameLine();
      ImGui::TextDisabled("· %s", f.live_state->status.c_str());
    }
    if (!f.live_state->error.empty()) {
      ImGui::SameLine();
      ImGui::TextColored(ImVec4(t.bad.r / 255.f, t.bad.g / 255.f, t.bad.b / 255.f, 1), "· %s",
                         f.live_state->error.c_str());
    }
  }
  if (!st.message.empty()) {
    ImGui::SameLine();
    ImGui::TextDisabled("· %s", st.message.c_str());
  }
  ImGui::SameLine(w - ImGui::CalcTextSize("light theme").x - ImGui::GetFrameHeight() - 8);
  bool light = !st.dark;
  if (ImGui::Checkbox("light theme", &light)) {
    st.dark = !light;
    apply_style(st.dark, gui_.scale);
  }
  ImGui::SetCursorScreenPos(ImVec2(p.x, p.y + h + 6));
}

void MainWindow::Draw(const Frame& f, ViewState& st) {
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(vp->Pos);
  ImGui::SetNextWindowSize(vp->Size);
  const ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                 ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoBringToFrontOnFocus;
  ImGui::Begin("gemmscope", nullptr, flags);
  DrawBanner(f, st);
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float gap = ImGui::GetStyle().ItemSpacing.x;
  const float list_w = std::max(260.0f * gui_.scale, avail.x * 0.2f);
  const float view_w = (avail.x - list_w - 2 * gap) / 2;
  ImGui::BeginChild("kernels", ImVec2(list_w, avail.y), true);
  kernels_.Draw(f, st);
  ImGui::EndChild();
  ImGui::SameLine();
  ImGui::BeginChild("perf", ImVec2(view_w * 0.85f, avail.y), true, ImGuiWindowFlags_NoScrollbar);
  perf_.Draw(gui_, f, st);
  ImGui::EndChild();
  ImGui::SameLine();
  // Fragment layout and bank conflicts share the right column as tabs: at 1600x900 stacking either under
  // the other (or the banks under the throughput bars) leaves cells and bar labels too small to read.
  ImGui::BeginChild("detail", ImVec2(0, avail.y), true, ImGuiWindowFlags_NoScrollbar);
  if (ImGui::BeginTabBar("##detail")) {
    // ImGui owns which tab is open and ViewState mirrors it. A tab asked for in ViewState (by shot, a
    // test) is passed on with SetSelected only until ImGui shows it (a frame later): passed every frame
    // it would override the user's clicks.
    const DetailTab want = st.detail;
    const bool forcing = want != shown_detail_;
    auto tab = [&](const char* label, DetailTab which, auto&& draw) {
      if (!ImGui::BeginTabItem(label, nullptr, forcing && which == want ? ImGuiTabItemFlags_SetSelected : 0)) return;
      shown_detail_ = which;
      draw();
      ImGui::EndTabItem();
    };
    tab("Fragment layout", DetailTab::Layout, [&] { layout_.Draw(gui_, f, st); });
    tab("Bank conflicts", DetailTab::Banks, [&] { banks_.Draw(gui_, f, st); });
    ImGui::EndTabBar();
    if (!forcing || shown_detail_ == want) st.detail = shown_detail_;
  }
  ImGui::EndChild();
  ImGui::End();
}

bool MainWindow::DrawView(const std::string& view, const Frame& f, ViewState& st) {
  if (!view_exists(view)) return false;
  if (view == "all") {
    Draw(f, st);
    return true;
  }
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(vp->Pos);
  ImGui::SetNextWindowSize(vp->Size);
  ImGui::Begin(view.c_str(), nullptr, ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoSavedSettings);
  if (view == "perf") perf_.Draw(gui_, f, st);
  else if (view == "layout") layout_.Draw(gui_, f, st);
  else if (view == "banks") banks_.Draw(gui_, f, st);
  ImGui::End();
  return true;
}

}  // namespace gs
