// The pipeline-timeline panel: a sampled block of the selected rung as its warps' stages over clock64,
// the rung before it below on the same cycle scale. The wheel zooms about the pointer, dragging pans,
// double-clicking goes back to the first dozen k-tiles.
#include <imgui.h>

#include <algorithm>
#include <set>

#include "app/panels/panel.h"
#include "app/ui.h"
#include "kernels/gemm.h"

namespace gs {
namespace {

class TimelinePanel : public ViewPanel {
 public:
  void Update(const ViewContext& ctx) override {
    const std::string kernel = traced_kernel(selected_kernel(ctx.st));  // an order variant: its rung's traces
    TimelineViewState& s = ctx.st.timeline;
    const bool fresh = kernel != kernel_;
    if (fresh) {  // a new rung opens on its first k-tiles (or on the stage its change is in), its first sampled block
      kernel_ = kernel;
      s = TimelineViewState{};
      other_choice_.clear();
      focus_pending_ = true;  // applied once the rung's spans are there (a live capture may bring them later)
    }
    const Capture* c = ctx.f.capture;
    // The inputs scan every stage and block record of the capture: rebuilt when what they depend on changes, not
    // every frame (a capture replaced at the same address has other record counts).
    Key key{c, c ? c->stages.size() : 0, c ? c->blocks.size() : 0, kernel, s.block, other_choice_};
    if (key == key_) {
      in_.shown_as = selected_kernel(ctx.st);
      return;
    }
    if (key.capture != key_.capture || key.stages != key_.stages) {
      // The rungs whose stages the capture holds: one pass over its stage records, which come rung by rung.
      staged_.clear();
      const std::string* last = nullptr;
      if (c)
        for (const StageRecord& r : c->stages)
          if (!last || r.kernel != *last) last = &*staged_.insert(r.kernel).first;
    }
    key_ = std::move(key);
    blocks_ = c ? timeline_blocks(*c, kernel) : 0;
    others_.clear();  // what "below:" offers: the other rungs with stages
    for (const std::string& n : c ? kernel_names(c) : std::vector<std::string>{})
      if (n != kernel && staged_.count(n)) others_.push_back(n);
    in_ = c ? timeline_block(*c, kernel, s.block) : TimelineBlock{};
    in_.kernel = kernel;
    in_.shown_as = selected_kernel(ctx.st);
    const std::string other = other_choice_.empty() ? previous_with_stages(c, kernel) : other_choice_;
    other_ = c && !other.empty() ? timeline_block(*c, other, 0) : TimelineBlock{};
    if (c)  // one scan of each rung's block records for both
      for (TimelineBlock* b : {&in_, &other_}) {
        const TracedLaunch l = traced_launch(*c, b->kernel);
        b->slowdown = slowdown(*c, b->kernel, l), b->per_sm = l.lanes;
      }
    in_.shape = traced_size(c, kernel), other_.shape = traced_size(c, other_.kernel);
    const KernelInfo* info = find_kernel(kernel);
    in_.focus = info ? info->timeline_focus : "";
    if (in_.focus.empty()) focus_pending_ = false;
    // Opened on the focus, or still there when the sample or the rung below changes: the window follows them.
    if ((focus_pending_ || s.on_focus) && open_on_focus(s)) focus_pending_ = false;
    clock_mhz_ = c ? c->device.sm_clock_mhz : 0;
  }

  void Toolbar(const ViewContext& ctx, Flow& flow) override {
    TimelineViewState& s = ctx.st.timeline;
    const float em = ImGui::GetFontSize();
    if (blocks_ > 1) {
      flow.next(em * 7);
      ImGui::SetNextItemWidth(em * 7);
      int b = s.block;
      if (ImGui::SliderInt("##tblock", &b, 0, blocks_ - 1, "sample %d")) s.block = b;
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("which of the blocks the probe sampled");
    }
    flow.next(Flow::button_w("first k-tiles"));
    if (ImGui::Button("first k-tiles")) choose(s, 0, -1);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("back to the first dozen k-tiles (or double-click the plot)");
    if (!in_.focus.empty()) {  // back to where this rung's change is (where it opened)
      const std::string label = "first " + in_.focus;
      flow.next(Flow::button_w(label.c_str()));
      if (ImGui::Button(label.c_str())) open_on_focus(s);
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("each warp's first %s: where this rung changes", in_.focus.c_str());
    }
    flow.next(Flow::button_w("whole block"));
    if (ImGui::Button("whole block")) choose(s, 0, full_span(s));
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip(below(s) ? "both blocks, to the end of the longer" : "the sampled block, start to end");
    flow.next(Flow::checkbox_w("below:"));
    ImGui::Checkbox("below:", &s.compare);
    if (s.compare && ctx.f.capture) {
      const std::vector<std::string>& names = others_;
      const float w = flow.combo_w(names.empty() ? std::vector<std::string>{"(none)"} : names);
      flow.next(w);
      ImGui::SetNextItemWidth(w);
      if (ImGui::BeginCombo("##tother", other_.block < 0 ? "(none)" : other_.kernel.c_str())) {
        for (const std::string& n : names)
          if (ui::combo_item(n.c_str(), n == other_.kernel)) other_choice_ = n;
        ImGui::EndCombo();
      }
    }
  }

  void Figure(Canvas& c, Rect r, const ViewContext& ctx, Vec2 mouse) override {
    const TimelineViewState& s = ctx.st.timeline;
    draw_timeline_view(c, r, ctx.theme, in_, below(s), clock_mhz_, s, mouse, &hover_);
  }

  void Interact(const ViewContext& ctx, const FigureItem& item) override {
    if (!item.hovered || in_.block < 0) return;
    TimelineViewState& s = ctx.st.timeline;
    const ImGuiIO& io = ImGui::GetIO();
    const Rect& p = hover_.plot;
    const double t0 = hover_.t0, t1 = hover_.t1, per_px = (t1 - t0) / std::max(1.0f, p.w());
    const double at = t0 + (double(item.mouse.x) - p.min.x) * per_px;  // the cycle under the pointer
    const double full = full_span(s);
    if (io.MouseWheel != 0 && !io.KeyCtrl) {  // zoom about the pointer, never past the block or below 100 cycles
      const double f = io.MouseWheel > 0 ? 0.8 : 1.25;
      double n0 = at - (at - t0) * f, n1 = at + (t1 - at) * f;
      if (n1 - n0 < 100) n1 = n0 + 100;
      if (n1 - n0 > full) n0 = 0, n1 = full;
      choose(s, std::max(0.0, n0), std::min(full, n1));
    }
    if (ImGui::IsMouseDragging(ImGuiMouseButton_Left)) {  // pan by the pointer's movement
      const double d = -io.MouseDelta.x * per_px, w = t1 - t0;
      const double n0 = std::clamp(t0 + d, 0.0, std::max(0.0, full - w));
      choose(s, n0, n0 + w);
    }
    if (item.double_clicked) choose(s, 0, -1);
    if (hover_.span >= 0) {
      const TimelineBlock& b = hover_.side == 1 ? other_ : in_;
      const TimelineBlock::Span& sp = b.spans[size_t(hover_.span)];
      const double cycles = double(sp.end - sp.start);
      ImGui::BeginTooltip();
      ImGui::Text("%s, block %d, warp %d", b.kernel.c_str(), b.block, sp.warp);
      ImGui::Text("%s: cycles %llu to %llu", b.stages[size_t(sp.stage)].c_str(), (unsigned long long)sp.start,
                  (unsigned long long)sp.end);
      if (clock_mhz_ > 0)
        ImGui::Text("%.0f cycles = %.2f \xC2\xB5s at the top clock, %d MHz", cycles, cycles / clock_mhz_, clock_mhz_);
      ImGui::TextDisabled("wheel: zoom \xC2\xB7 drag: pan \xC2\xB7 double-click: the first k-tiles");
      ImGui::EndTooltip();
    }
  }

 private:
  // The cycles zooming and panning may reach: the selected block's, or the longer of it and the block drawn below
  // on the same scale (a faster rung over a slower one would otherwise cut the slower one's end off).
  double full_span(const TimelineViewState& s) const {
    const TimelineBlock* b = below(s);
    return double(std::max<uint64_t>({1, in_.duration, b ? b->duration : 0}));
  }

  // The block drawn below the selected rung's on the same scale, or null (none, or "below:" unticked).
  const TimelineBlock* below(const TimelineViewState& s) const {
    return s.compare && other_.block >= 0 ? &other_ : nullptr;
  }

  // A window the user chose (t1 < 0: the first dozen k-tiles): the rung no longer shows, or waits to show, its focus.
  void choose(TimelineViewState& s, double t0, double t1) {
    s.t0 = t0, s.t1 = t1;
    s.on_focus = focus_pending_ = false;
  }

  // The window on the rung's focus (focus_window), where it has one; false, and the window as it was, where not.
  bool open_on_focus(TimelineViewState& s) const {
    double f0 = 0, f1 = 0;
    if (!focus_window(in_, below(s), &f0, &f1)) return false;
    s.t0 = f0, s.t1 = f1, s.on_focus = true;
    return true;
  }

  // How much slower the traced launch ran than the timed one: the blocks' span over the main run's time.
  static double slowdown(const Capture& c, const std::string& kernel, const TracedLaunch& l) {
    const std::vector<std::string> dtypes = dtypes_of(&c, kernel);
    const RunRecord* r = dtypes.empty() ? nullptr : main_run(&c, kernel, dtypes.front());
    return l.empty() || !r || r->median_ms <= 0 ? 0 : double(l.duration) / (r->median_ms * 1e6);
  }

  // The rung before `kernel` in its ladder whose stages the capture holds, or "".
  std::string previous_with_stages(const Capture* c, const std::string& kernel) const {
    if (!c) return "";
    const std::vector<std::string> names = kernel_names(c);
    const auto at = std::find(names.begin(), names.end(), kernel);
    for (auto it = at; it != names.begin();) {
      --it;
      if (family_of(*it) == family_of(kernel) && it->find('[') == std::string::npos && staged_.count(*it)) return *it;
    }
    return "";
  }

  std::string kernel_, other_choice_;
  bool focus_pending_ = false;  // a new rung with a timeline focus, not yet opened on it
  // What the inputs below were built from.
  struct Key {
    const Capture* capture = nullptr;
    size_t stages = 0, blocks = 0;
    std::string kernel;
    int block = -1;
    std::string other_choice;
    bool operator==(const Key& o) const {
      return capture == o.capture && stages == o.stages && blocks == o.blocks && kernel == o.kernel &&
             block == o.block && other_choice == o.other_choice;
    }
  };
  Key key_;
  int blocks_ = 0, clock_mhz_ = 0;
  std::set<std::string> staged_;  // the rungs with stage records in key_'s capture
  std::vector<std::string> others_;
  TimelineBlock in_, other_;
  TimelineHover hover_;
};

}  // namespace

std::unique_ptr<ViewPanel> make_timeline_panel() { return std::make_unique<TimelinePanel>(); }

}  // namespace gs
