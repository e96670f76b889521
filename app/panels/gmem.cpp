// The global-memory panel: the selected rung's traced loads, cp.async reads and stores, opening on the site
// furthest from its ideal, with the rung before it beside (sgemm/01 next to 02 shows coalescing).
#include <imgui.h>

#include <algorithm>
#include <set>

#include "app/panels/panel.h"
#include "app/ui.h"
#include "kernels/gemm.h"

namespace gs {
namespace {

// A, B and C element sizes of a dtype: f16 inputs are 2 bytes, an f16.f16 output too.
void element_sizes(const std::string& dtype, int (&eb)[3]) {
  const bool half_in = dtype.rfind("f16", 0) == 0;
  eb[0] = eb[1] = half_in ? 2 : 4;
  eb[2] = dtype == "f16.f16" ? 2 : 4;
}

// Element sizes and leading dimensions of the run that was traced (the capture's main run of the rung).
void traced_shape(const Capture& c, const std::string& kernel, int (&eb)[3], int64_t (&ld)[3]) {
  const std::vector<std::string> dtypes = dtypes_of(&c, kernel);
  const RunRecord* r = dtypes.empty() ? nullptr : main_run(&c, kernel, dtypes.front());
  if (!r) return;
  element_sizes(r->dtype, eb);
  ld[0] = r->k, ld[1] = r->n, ld[2] = r->n;
}

class GmemPanel : public ViewPanel {
 public:
  void Update(const ViewContext& ctx) override {
    const std::string kernel = traced_kernel(selected_kernel(ctx.st));  // an order variant: its rung's traces
    const Frame& f = ctx.f;
    const size_t records = f.capture ? f.capture->gmem.size() : 0;
    if (f.capture != capture_ || records != records_ || in_.kernel != kernel || f.live != in_.live) {
      in_ = GmemViewInput{};
      in_.kernel = kernel;
      in_.live = f.live;
      if (f.capture) {
        in_.sites = gmem_sites(*f.capture, kernel);
        in_.capture_has_gmem = !f.capture->gmem.empty();
        in_.kernel_recorded = !runs_of(*f.capture, kernel).empty() || !in_.sites.empty();
        const KernelInfo* k = find_kernel(kernel);
        if (k) in_.untraced = k->gmem_untraced;
        if (in_.sites.empty() && family_of(kernel) == "hopper")
          in_.no_lane_addresses = kernel + " moves A and B with TMA: one thread issues a bulk tensor copy of a whole "
                                           "tile, so no lane supplies an address of A or B to draw here. " +
                                  (k && !k->gmem_stores_traced
                                       ? std::string("C leaves through shared memory by TMA stores too (its staging "
                                                     "stores are in the bank view).")
                                       : std::string("This capture holds no trace of its C stores: it was recorded "
                                                     "before they were traced."));
        if (!in_.sites.empty())
          in_.traced_from = f.capture->device.name + (f.live ? ", live" : ", " + recorded_day(*f.capture, kernel, "gmem"));
        traced_shape(*f.capture, kernel, in_.elem_bytes, in_.ld);
        in_.shape = traced_size(f.capture, kernel);
      }
      capture_ = f.capture, records_ = records;
      compare_for_.clear();
    }
    in_.shown_as = selected_kernel(ctx.st);
    if (kernel != kernel_) {  // a new rung keeps a site of the same name in view
      kernel_ = kernel;
      const int keep = ctx.st.gmem.site >= 0 ? ctx.st.gmem.site : -1;
      const bool compare = ctx.st.gmem.compare;
      ctx.st.gmem = GmemViewState{};
      ctx.st.gmem.compare = compare;
      for (size_t i = 0; i < in_.sites.size(); ++i)
        if (in_.sites[i].name == site_name_ && in_.sites[i].kind == site_kind_ && keep >= 0) ctx.st.gmem.site = int(i);
    }
    if (!ctx.st.focus_site.empty()) {  // the code view asked for a site by name
      for (size_t i = 0; i < in_.sites.size(); ++i)
        if (in_.sites[i].name == ctx.st.focus_site) ctx.st.gmem.site = int(i), ctx.st.gmem.access = 0, ctx.st.reveal = "gmem";
      ctx.st.focus_site.clear();  // the bank view (before this one in the table) had its chance
    }
    UpdateCompare(ctx);
    const int s = Site(ctx.st.gmem);
    site_name_ = s >= 0 ? in_.sites[size_t(s)].name : "";
    site_kind_ = s >= 0 ? in_.sites[size_t(s)].kind : "";
  }

  void Toolbar(const ViewContext& ctx, Flow& flow) override {
    GmemViewState& g = ctx.st.gmem;
    const float em = ImGui::GetFontSize();
    const int s = Site(g);
    if (s >= 0) {
      std::vector<std::string> names;
      for (const GmemSite& site : in_.sites) names.push_back(Label(site));
      const float w = flow.combo_w(names);
      flow.next(w);
      ImGui::SetNextItemWidth(w);
      if (ImGui::BeginCombo("##gsite", names[size_t(s)].c_str())) {
        for (size_t i = 0; i < names.size(); ++i) {
          ImGui::PushID(int(i));
          if (ui::combo_item(names[i].c_str(), int(i) == s)) g.site = int(i), g.access = 0;
          ImGui::PopID();
        }
        ImGui::EndCombo();
      }
      const int count = int(in_.sites[size_t(s)].accesses.size());
      if (count > 1) {
        // One slider over every warp's requests; it names the warp of the one shown, as the caption does, which
        // numbers requests within their warp ("request 1 of 16" under "traced 17 of 32 (warp 1)").
        const std::vector<GmemAccess>& acc = in_.sites[size_t(s)].accesses;
        int n = std::clamp(g.access, 0, count - 1) + 1;
        std::set<int> warps;
        for (const GmemAccess& a : acc) warps.insert(a.warp);
        const std::string fmt = "traced %d of " + std::to_string(count) +
                                (warps.size() > 1 ? " (warp " + std::to_string(acc[size_t(n - 1)].warp) + ")" : "");
        const float sw = ImGui::CalcTextSize(fmt.c_str()).x + em * 2;
        flow.next(sw);
        ImGui::SetNextItemWidth(sw);
        if (ImGui::SliderInt("##greq", &n, 1, count, fmt.c_str())) g.site = s, g.access = n - 1;
        if (ImGui::IsItemHovered())
          ImGui::SetTooltip(warps.size() > 1 ? "the site's traced requests: each warp's in turn, of every k-iteration the "
                                               "capture kept (the caption numbers them within their warp)"
                                             : "the site's traced requests, of every k-iteration the capture kept");
      }
      flow.next(Flow::checkbox_w("beside:"));
      if (ImGui::Checkbox("beside:", &g.compare)) UpdateCompare(ctx);
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("draw the same site of another rung beside this one");
      if (g.compare) {
        std::vector<std::string> others;
        for (const std::string& n : rungs_)
          if (n != in_.kernel) others.push_back(n);
        const float cw = flow.combo_w(others.empty() ? std::vector<std::string>{"(none)"} : others);
        flow.next(cw);
        ImGui::SetNextItemWidth(cw);
        if (ImGui::BeginCombo("##gcmp", in_.compare_kernel.empty() ? "(none)" : in_.compare_kernel.c_str())) {
          for (size_t i = 0; i < others.size(); ++i) {
            ImGui::PushID(int(i));
            if (ui::combo_item(others[i].c_str(), others[i] == in_.compare_kernel)) compare_choice_ = others[i];
            ImGui::PopID();
          }
          ImGui::EndCombo();
        }
        UpdateCompare(ctx);
      }
    }
    if (g.highlight_lane >= 0) {
      const std::string label = "lane " + std::to_string(g.highlight_lane) + "  \xC3\x97";
      flow.next(Flow::button_w(label.c_str()));
      if (ImGui::Button(label.c_str())) g.highlight_lane = -1;
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("clear the highlighted lane");
    }
  }

  void Figure(Canvas& c, Rect r, const ViewContext& ctx, Vec2 mouse) override {
    draw_gmem_view(c, r, ctx.theme, in_, ctx.st.gmem, mouse, &hover_);
  }

  void Interact(const ViewContext& ctx, const FigureItem& item) override {
    GmemViewState& g = ctx.st.gmem;
    if (!item.hovered) return;
    if (hover_.site >= 0 && hover_.site < int(in_.sites.size())) {
      const GmemSite& s = in_.sites[size_t(hover_.site)];
      ImGui::BeginTooltip();
      ImGui::Text("%s: %d bytes per lane, %lld requests traced", Label(s).c_str(), s.width, (long long)s.requests);
      ImGui::Text("%lld sectors: %.2f per request, ideal %.2f", (long long)s.sectors, s.sectors_per_request(),
                  s.ideal_per_request());
      ImGui::TextDisabled("click: draw its first request");
      ImGui::EndTooltip();
      if (item.clicked) g.site = hover_.site, g.access = 0;
      return;
    }
    if (hover_.lane < 0) return;
    const int s = Site(g);
    const GmemSite* site = nullptr;
    if (hover_.side == 0 && s >= 0) site = &in_.sites[size_t(s)];
    if (hover_.side == 1 && s >= 0) {
      const int cs = gmem_compare_site(in_.compare_sites, in_.sites[size_t(s)]);
      if (cs >= 0) site = &in_.compare_sites[size_t(cs)];
    }
    if (!site || site->accesses.empty()) return;
    const GmemAccess& a = site->accesses[size_t(std::clamp(g.access, 0, int(site->accesses.size()) - 1))];
    const auto& off = a.offset[size_t(hover_.lane)];
    if (!off) return;
    const int m = a.matrix == 'B' ? 1 : a.matrix == 'C' ? 2 : 0;
    const int eb = hover_.side == 0 ? in_.elem_bytes[m] : in_.compare_elem_bytes[m];
    const int64_t ld = hover_.side == 0 ? in_.ld[m] : in_.compare_ld[m];
    const MatrixCell cell = matrix_cell(*off, ld, eb);
    ImGui::BeginTooltip();
    ImGui::Text("lane %d: %c[%lld][%lld], %d bytes from byte offset %lld", hover_.lane, a.matrix, (long long)cell.row,
                (long long)cell.col, a.width, (long long)*off);
    ImGui::Text("sector %lld, 128-byte line %lld", (long long)(*off / kSectorBytes), (long long)(*off / kLineBytes));
    ImGui::TextDisabled("click: outline this lane");
    ImGui::EndTooltip();
    if (item.clicked) g.highlight_lane = g.highlight_lane == hover_.lane ? -1 : hover_.lane;
  }

  std::string ExportDetail(const ViewContext& ctx) const override {
    std::string d = file_safe(in_.kernel);
    const int s = Site(ctx.st.gmem);
    if (s >= 0) d += "_" + file_safe(Label(in_.sites[size_t(s)]));
    return d;
  }

 private:
  static std::string Label(const GmemSite& s) { return s.name + " " + s.kind; }

  int Site(const GmemViewState& g) const {
    return g.site >= 0 && g.site < int(in_.sites.size()) ? g.site : gmem_default_site(in_.sites);
  }

  // The rung beside: the one picked, else the rung before this one in its family that has records.
  void UpdateCompare(const ViewContext& ctx) {
    const Frame& f = ctx.f;
    if (f.capture != rungs_capture_) {  // the rungs with global records, ladder order: what compare can pick
      rungs_capture_ = f.capture;
      all_rungs_.clear();
      if (f.capture) {
        std::set<std::string> traced;
        for (const GmemAccess& a : f.capture->gmem) traced.insert(a.kernel);
        for (const std::string& n : kernel_names(f.capture))
          if (traced.count(n)) all_rungs_.push_back(n);
      }
    }
    rungs_ = all_rungs_;
    if (std::find(rungs_.begin(), rungs_.end(), in_.kernel) == rungs_.end()) rungs_.clear();
    std::string other = compare_choice_;
    if (other.empty() || other == in_.kernel) other = rung_beside(rungs_, in_.kernel);
    if (!ctx.st.gmem.compare || other.empty() || !f.capture) {
      in_.compare_kernel.clear(), in_.compare_sites.clear(), in_.compare_shape.clear(), compare_for_.clear();
      return;
    }
    if (other != compare_for_) {
      in_.compare_sites = gmem_sites(*f.capture, other);
      traced_shape(*f.capture, other, in_.compare_elem_bytes, in_.compare_ld);
      in_.compare_shape = traced_size(f.capture, other);
      compare_for_ = other;
    }
    in_.compare_kernel = other;
  }

  std::string kernel_, site_name_, site_kind_;
  std::vector<std::string> rungs_, all_rungs_;
  const Capture* rungs_capture_ = nullptr;
  std::string compare_choice_, compare_for_;
  GmemViewInput in_;
  const Capture* capture_ = nullptr;
  size_t records_ = 0;
  GmemHover hover_;
};

}  // namespace

std::unique_ptr<ViewPanel> make_gmem_panel() { return std::make_unique<GmemPanel>(); }

}  // namespace gs
