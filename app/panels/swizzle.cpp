// The launch-order panel: the selected rung's traced blocks (which SM ran which tile when), a moment of the
// run chosen with a slider or played back, and beside it on the same time scale the same kernel in its other
// order (a rung and one of its block order variants [order=S]) or else the rung before it.
#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <map>

#include "app/panels/panel.h"
#include "app/ui.h"
#include "kernels/gemm.h"

namespace gs {
namespace {

constexpr float kPlaySeconds = 8;  // a whole run plays back in this long

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}

int elem_bytes(const std::string& dtype) { return dtype == "f32" || dtype == "tf32" ? 4 : 2; }

class SwizzlePanel : public ViewPanel {
 public:
  void Update(const ViewContext& ctx) override {
    const std::string kernel = selected_kernel(ctx.st);
    bool reread = false;
    if (ctx.f.capture != capture_ || (ctx.f.capture && ctx.f.capture->blocks.size() != blocks_)) {
      launches_.clear();  // a new capture (or live data grew): read the launches again
      reread = true;
      orders_.clear();
      capture_ = ctx.f.capture;
      blocks_ = capture_ ? capture_->blocks.size() : 0;
    }
    if (kernel != kernel_) {
      kernel_ = kernel;
      other_ = previous_traced(kernel);
      other_chosen_ = false;
      ctx.st.swizzle.time = 1;
      ctx.st.swizzle.playing = false;
    } else if (reread && !other_chosen_) {
      other_ = previous_traced(kernel);  // live: the twin's trace can arrive after the kernel was selected
    }
    fam_dtypes_ = family_dtypes(capture_);
    in_ = input(kernel);
    if (!other_.empty()) other_in_ = input(other_);
    // Playback: the moment advances with the frames while playing.
    SwizzleViewState& s = ctx.st.swizzle;
    if (s.playing && ctx.gui) {
      s.time += ImGui::GetIO().DeltaTime / kPlaySeconds;
      if (s.time >= 1) s.time = 1, s.playing = false;
    }
  }

  bool Animating(const ViewContext& ctx) const override { return ctx.st.swizzle.playing; }

  void Toolbar(const ViewContext& ctx, Flow& flow) override {
    SwizzleViewState& s = ctx.st.swizzle;
    const float em = ImGui::GetFontSize();
    static const char* kColours[] = {"colour: launch order", "colour: SM", "colour: start time"};
    const float colour_w = flow.combo_w({kColours[0], kColours[1], kColours[2]});
    flow.next(colour_w);
    ImGui::SetNextItemWidth(colour_w);
    int colour = int(s.colour);
    if (ImGui::Combo("##colour", &colour, kColours, 3)) s.colour = SwizzleColour(colour);
    const char* play = s.playing ? "pause" : "play";
    flow.next(Flow::button_w("pause"));
    if (ImGui::Button(play, ImVec2(Flow::button_w("pause"), 0))) {
      if (!s.playing && s.time >= 1) s.time = 0;
      s.playing = !s.playing;
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("play the run back: blocks fill their tiles as they start and finish");
    flow.next(em * 8);
    ImGui::SetNextItemWidth(em * 8);
    float pct = s.time * 100;
    if (ImGui::SliderFloat("##time", &pct, 0, 100, "t = %.0f%%")) s.time = pct / 100, s.playing = false;
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("the moment shown, as a share of the run");
    flow.next(Flow::checkbox_w("per-SM timeline"));
    ImGui::Checkbox("per-SM timeline", &s.timeline);
    // The rung beside: the previous traced one by default, any traced kernel on request.
    flow.next(Flow::checkbox_w("beside:"));
    ImGui::Checkbox("beside:", &s.compare);
    if (s.compare) {
      std::vector<std::string> traced;  // the kernels that can go beside: every other traced one
      if (ctx.f.capture)
        for (const std::string& name : kernel_names(ctx.f.capture))
          if (name != kernel_ && !launch(name).empty()) traced.push_back(name);
      // As wide as the rung shown (its list opens as wide as its longest name): beside the checkbox in a pane
      // where the longest traced name took a row of its own.
      const float w = flow.combo_w({other_.empty() ? std::string("(none traced)") : other_});
      flow.next(w);
      ImGui::SetNextItemWidth(w);
      if (ImGui::BeginCombo("##other", other_.empty() ? "(none traced)" : other_.c_str())) {
        for (const std::string& name : traced)
          if (ui::combo_item(name.c_str(), name == other_)) other_ = name, other_chosen_ = true;
        ImGui::EndCombo();
      }
    }
  }

  void Figure(Canvas& c, Rect r, const ViewContext& ctx, Vec2 mouse) override {
    const SwizzleViewState& s = ctx.st.swizzle;
    const bool beside = s.compare && !other_.empty();
    draw_swizzle_view(c, r, ctx.theme, in_, beside ? &other_in_ : nullptr, s, mouse, &hover_);
  }

  void Interact(const ViewContext& ctx, const FigureItem& item) override {
    if (item.hovered && hover_.measured >= 0) {  // a measured line, whole (a narrow side cuts it)
      const SwizzleViewInput& in = hover_.side == 1 ? other_in_ : in_;
      if (size_t(hover_.measured) < in.measured.size()) ImGui::SetTooltip("%s", in.measured[size_t(hover_.measured)].c_str());
      return;
    }
    if (!item.hovered || hover_.block < 0) return;
    const SwizzleViewInput& in = hover_.side == 1 ? other_in_ : in_;
    const TracedLaunch& l = *in.launch;
    const BlockRecord& b = l.blocks[size_t(hover_.block)];
    ImGui::BeginTooltip();
    if (l.persistent())
      ImGui::Text("%s: tile %d of the tile order, computed by persistent CTA %d", in.kernel.c_str(), b.launch, b.bx);
    else
      ImGui::Text("%s: launch %d, blockIdx (%d, %d)", in.kernel.c_str(), b.launch, b.bx, b.by);
    ImGui::Text("tile (%d, %d): C rows %d-%d, columns %d-%d", b.tile_m, b.tile_n, b.tile_m * in.block_m,
                (b.tile_m + 1) * in.block_m - 1, b.tile_n * in.block_n, (b.tile_n + 1) * in.block_n - 1);
    ImGui::Text("SM %d, started at %.1f \xC2\xB5s, ran %.1f \xC2\xB5s", b.smid, double(b.start_ns - l.t0) / 1000,
                double(b.end_ns - b.start_ns) / 1000);
    ImGui::TextDisabled("click: show the moment it started");
    ImGui::EndTooltip();
    if (item.clicked) {
      // One time scale for both sides: the longer run's.
      uint64_t span = in_.launch ? in_.launch->duration : 0;
      if (ctx.st.swizzle.compare && other_in_.launch) span = std::max(span, other_in_.launch->duration);
      ctx.st.swizzle.time = span ? float(double(b.start_ns - l.t0) / double(span)) : 1;
      ctx.st.swizzle.playing = false;
    }
  }

 private:
  const TracedLaunch& launch(const std::string& kernel) {
    auto it = launches_.find(kernel);
    if (it == launches_.end())
      it = launches_.emplace(kernel, capture_ ? traced_launch(*capture_, kernel) : TracedLaunch{}).first;
    return it->second;
  }

  // What to set beside `kernel`: the same kernel in another order where the capture traced it (a variant:
  // its rung; a rung: its row-major variant [order=none], or where the rung's own order is row-major, a traced
  // variant in another order, one Nsight Compute measured first (the view quotes its L2 numbers), the fastest
  // of those), else the rung before it that the capture traced, else "".
  std::string previous_traced(const std::string& kernel) {
    if (!capture_) return "";
    const std::string rung = rung_of_variant(kernel);
    if (rung != kernel && !launch(rung).empty()) return rung;
    if (rung == kernel && !launch(kernel).empty()) {
      const std::string none = kernel + "[order=none]";
      if (!launch(none).empty() && identify_order(launch(kernel)) != "none") return none;
      std::string best;
      std::pair<bool, double> best_key = {false, -1};  // (measured by Nsight Compute, TFLOP/s)
      for (const std::string& v : variants_of(capture_, kernel)) {
        if (launch(v).empty() || identify_order(launch(v)) == "none") continue;
        const RunRecord* r = main_run(capture_, v, "");  // its first dtype's run
        const bool profiled = std::any_of(capture_->l2.begin(), capture_->l2.end(),
                                          [&](const L2Record& l) { return l.kernel == v; });
        const std::pair<bool, double> key = {profiled, r ? r->tflops : 0};
        if (key > best_key) best = v, best_key = key;
      }
      if (!best.empty()) return best;
    }
    const std::vector<std::string> names = rung_names(capture_);
    const auto at = std::find(names.begin(), names.end(), rung);
    for (auto it = at; it != names.begin();) {
      --it;
      if (family_of(*it) == family_of(kernel) && !launch(*it).empty()) return *it;
    }
    return "";
  }

  SwizzleViewInput input(const std::string& kernel) {
    SwizzleViewInput in;
    in.kernel = kernel;
    in.launch = &launch(kernel);
    if (const KernelInfo* k = find_kernel(kernel)) in.block_m = k->block_m, in.block_n = k->block_n;
    const std::vector<std::string> dtypes = dtypes_of(capture_, kernel);
    if (const RunRecord* r = dtypes.empty() ? nullptr : main_run(capture_, kernel, dtypes.front())) {
      in.k = r->k;
      in.shape = shape_label(*r);
      in.elem_bytes = elem_bytes(r->dtype);
      in.timed_ms = r->median_ms;
    }
    // The speed in the dtype its family is shown in, as in the kernel list, so that two rungs side by side
    // compare like with like; a rung without a run in that dtype says which it is.
    bool other = false;
    const auto fam = fam_dtypes_.find(family_of(kernel));
    const std::string dtype = headline_dtype(dtypes, fam == fam_dtypes_.end() ? "" : fam->second, &other);
    if (const RunRecord* r = dtype.empty() ? nullptr : main_run(capture_, kernel, dtype)) {
      in.tflops = r->tflops;
      if (other) in.other_dtype = dtype;
    }
    if (const RunRecord* r = dtype.empty() ? nullptr : ladder_run(capture_, kernel, dtype)) in.list_shape = shape_label(*r);
    if (capture_) in.l2_bytes = capture_->device.l2_bytes;
    // A rung whose row-major variant Nsight Compute measured at the same size: both on one line, row-major first,
    // as README's table has them (at the traced size a banded rung can be row-major; at these sizes it is not).
    bool row_major_measured = false;
    if (capture_)
      for (const L2Record& l : capture_->l2) {
        if (l.kernel != kernel) continue;
        const std::string size = std::to_string(l.m) + "x" + std::to_string(l.n) + "x" + std::to_string(l.k);
        const L2Record* none = nullptr;
        for (const L2Record& o : capture_->l2)
          if (o.kernel == kernel + "[order=none]" && o.m == l.m && o.n == l.n && o.k == l.k) none = &o;
        // The numbers first: a narrow side cuts the line's end ("Nsight Compute at 4096x16384x4096: L2 h...").
        if (none) {
          row_major_measured = true;
          in.measured.push_back("L2 hit " + fmt("%.1f", none->hit_pct) + " \xE2\x86\x92 " + fmt("%.1f", l.hit_pct) +
                                "%, DRAM read " + fmt("%.2f", none->dram_read_bytes / 1e9) + " \xE2\x86\x92 " +
                                fmt("%.2f", l.dram_read_bytes / 1e9) + " GB, " + fmt("%.0f", none->duration_ns / 1e3) +
                                " \xE2\x86\x92 " + fmt("%.0f", l.duration_ns / 1e3) +
                                " \xC2\xB5s (Nsight Compute, " + size + ": row-major \xE2\x86\x92 its own order)");
        } else {
          in.measured.push_back("L2 hit " + fmt("%.1f", l.hit_pct) + "%, DRAM read " +
                                fmt("%.2f", l.dram_read_bytes / 1e9) + " GB, " + fmt("%.0f", l.duration_ns / 1e3) +
                                " \xC2\xB5s (Nsight Compute, " + size + ")");
        }
      }
    auto order = orders_.find(kernel);
    if (order == orders_.end()) order = orders_.emplace(kernel, identify_order(*in.launch)).first;
    // "at this size": a rung measured against its row-major variant orders its blocks otherwise on wider C.
    // cutlass:0 is plain column-major (bands one tile column wide): named so, the scheme after it (sgemm/01's order
    // read "cutlass:0 order" to a class that knows it as column-major).
    in.order = order->second == "none"        ? (row_major_measured ? "row-major order at this size" : "row-major order")
               : order->second == "cutlass:0" ? "column-major order (cutlass:0)"
               : order->second.empty()        ? (in.launch->empty() ? "" : "its own order")
                                              : order->second + " order";
    return in;
  }

  const Capture* capture_ = nullptr;
  std::map<std::string, std::string> fam_dtypes_;  // family_dtypes of capture_, read each frame
  size_t blocks_ = 0;
  std::map<std::string, TracedLaunch> launches_;
  std::map<std::string, std::string> orders_;
  std::string kernel_, other_;
  bool other_chosen_ = false;  // picked in the toolbar: kept while the kernel stays
  SwizzleViewInput in_, other_in_;
  SwizzleHover hover_;
};

}  // namespace

std::unique_ptr<ViewPanel> make_swizzle_panel() { return std::make_unique<SwizzlePanel>(); }

}  // namespace gs
