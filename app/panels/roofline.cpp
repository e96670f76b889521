// The roofline panel: the selected rung's ladder, one dtype (the throughput view's), as points of tiling
// intensity against measured TFLOP/s under the capture's measured ceilings. Clicking a point selects that
// rung; hovering a point or a ceiling says its numbers and where they came from.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "app/panels/panel.h"
#include "viz/draw_util.h"
#include "core/text.h"
#include "kernels/gemm.h"

namespace gs {
namespace {

int elem_bytes_of(const std::string& dtype) { return dtype.rfind("f16", 0) == 0 ? 2 : 4; }

// The C tile whose A and B operands one global read serves (KernelInfo::reuse_m/n, else the block tile).
void reuse_tile(const KernelInfo& k, int* m, int* n) {
  *m = k.reuse_m > 0 ? k.reuse_m : k.block_m;
  *n = k.reuse_n > 0 ? k.reuse_n : k.block_n;
}

class RooflinePanel : public ViewPanel {
 public:
  void Update(const ViewContext& ctx) override {
    const Capture* c = ctx.f.capture;
    const std::string selected = selected_kernel(ctx.st), family = family_of(selected);
    in_ = RooflineViewInput{};
    in_.title = family + " ladder";
    if (!c) return;
    // One dtype: the throughput view's choice where this family has it, else the selected rung's first.
    std::vector<std::string> dtypes;
    for (const std::string& name : kernel_names(c))
      if (family_of(name) == family)
        for (const std::string& d : dtypes_of(c, name))
          if (std::find(dtypes.begin(), dtypes.end(), d) == dtypes.end()) dtypes.push_back(d);
    const std::vector<std::string> own = dtypes_of(c, selected);
    // A selected rung measured in other dtypes than the throughput view's draws in its own (wmma/10: f16.f16), or
    // it would not be on its own plot.
    const bool own_has = own.empty() || std::find(own.begin(), own.end(), ctx.st.perf_dtype) != own.end();
    dtype_ = own_has && std::find(dtypes.begin(), dtypes.end(), ctx.st.perf_dtype) != dtypes.end() ? ctx.st.perf_dtype
             : !own.empty()                                                             ? own.front()
             : dtypes.empty()                                                           ? std::string()
                                                                                        : dtypes.front();
    std::string shape;
    // The ladder's rungs, and a selected variant after them (its own dot, named, off the ladder's path).
    std::vector<std::string> names;
    for (const std::string& name : kernel_names(c))
      if (family_of(name) == family && name.find('[') == std::string::npos) names.push_back(name);
    if (selected.find('[') != std::string::npos) names.push_back(selected);
    std::string not_drawn;  // rungs of the ladder measured in other dtypes only (wmma/10: f16.f16)
    for (const std::string& name : names) {
      const RunRecord* r = ladder_run(c, name, dtype_);
      const KernelInfo* k = find_kernel(name);
      if (!r && k)
        if (const std::vector<std::string> its = dtypes_of(c, name); !its.empty())
          not_drawn += (not_drawn.empty() ? "" : "; ") + rung_number(name) + " (" + join_list(its, "and") + " only)";
      if (!r || !k) continue;
      if (shape.empty()) shape = shape_label(*r);
      int tm = 0, tn = 0;
      reuse_tile(*k, &tm, &tn);
      RooflinePoint p;
      p.kernel = name;
      p.intensity = tile_intensity(tm, tn, elem_bytes_of(dtype_));
      p.tflops = r->tflops;
      p.ok = std::isfinite(r->rel_err) && r->tflops > 0;
      p.selected = name == selected;
      p.variant = name.find('[') != std::string::npos;
      in_.points.push_back(p);
      tiles_[name] = {tm, tn};
    }
    in_.ceilings = roofline_ceilings(c->peaks, family, dtype_, c->runs);
    // Rungs above the L2 line whose tiles come through shared memory: every byte of them came from L2 (a cp.async
    // .cg or a TMA copy skips L1), so at their measured speed L2 delivered more than the line's probe, whose 16-byte
    // ld.global.cg from every SM is what plain loads reach, not what L2 can give a bulk copy.
    // Those that read straight from global came through L1; below the L2 line and above the DRAM line, from L2.
    l2_tbs_ = 0;
    double dram_tbs = 0;
    for (const Ceiling& ce : in_.ceilings) {
      if (ce.name == "l2") l2_tbs_ = ce.value;
      if (ce.name == "dram") dram_tbs = ce.value;
    }
    std::vector<bool> direct;  // read straight from global: the tile is the thread's or warp's, not the block's
    for (const RooflinePoint& p : in_.points) {
      const auto tile = tiles_[p.kernel];
      const KernelInfo* k = find_kernel(p.kernel);
      direct.push_back(k && tile.first * tile.second < k->block_m * k->block_n);
    }
    const RooflineAbove above = roofline_above(in_.points, direct, l2_tbs_, dram_tbs);
    l2_faster_ = above.l2_faster;
    l2_faster_rates_ = above.l2_faster_rates;
    for (const std::string& part : {dtype_, shape, c->device.name})  // what is known of them: no ", NVIDIA H200"
      if (!part.empty()) in_.subtitle += (in_.subtitle.empty() ? "" : ", ") + part;
    // At most three lines show under the plot (a maximised pane at 1600x900 cut the old note at "else from L2"):
    // the reading of the axes first, then what a point above a line means, then the mma.sync line.
    // A rung the ladder's dtype leaves out says so first: the wmma ladder in f16.f32 went from 09 to 11 unexplained.
    in_.note = (not_drawn.empty() ? std::string()
                                  : "Not drawn in " + dtype_ + ": " + not_drawn + "; a rung selected draws its own. ") +
               "Intensity from each rung's tiling: an m x n tile of C reads (m + n) elements of A and B per k for 2mn "
               "flops; the tile is the block's where A and B are staged in shared memory" +
               std::string(family == "hopper" ? " (05, 06: the 2-CTA cluster's 256x256, as TMA multicasts B; Nsight "
                                                "Compute measured those L2 reads)"
                                              : "") +
               ", the thread's or warp's where they are read straight from global. Above the DRAM line, operands come "
               "from L2; above the L2 line, from L1 (straight reads)" +
               (l2_faster_.empty()
                    ? std::string(".")
                    // A picture has no dot to hover: it gives the rates the tooltip would.
                    : " or from L2 faster than the line's plain loads (" +
                          viz::hint(l2_faster_ + ": hover a dot", l2_faster_rates_) + ").") +
               std::string(family != "hopper" && family != "sgemm" && !in_.ceilings.empty()
                               ? " The mma.sync line: that instruction alone, 8 warps per SM; the rungs built on "
                                 "it stay under it. cuBLAS runs wgmma, which issues more: the gap between the lines "
                                 "is the instruction's."
                               : "") +
               std::string(family == "hopper" && std::any_of(in_.ceilings.begin(), in_.ceilings.end(),
                                                             [](const Ceiling& ce) { return ce.name == "wgmma_f16"; })
                               ? " The wgmma line: that instruction alone from shared memory, 2 warpgroups per SM; "
                                 "cuBLAS runs on it too."
                               : "");
    // The note's point about the lines, for a pane with no room for the note (the window's whole layout).
    in_.gist = roofline_gist(above);
    if (!not_drawn.empty()) in_.gist += (in_.gist.empty() ? "Not drawn: " : "; not drawn: ") + not_drawn;
  }

  void Toolbar(const ViewContext&, Flow&) override {}

  void Figure(Canvas& c, Rect r, const ViewContext& ctx, Vec2 mouse) override {
    draw_roofline_view(c, r, ctx.theme, in_, mouse, &hover_);
  }

  void Interact(const ViewContext& ctx, const FigureItem& item) override {
    if (!item.hovered) return;
    if (hover_.point >= 0 && hover_.point < int(in_.points.size())) {
      const RooflinePoint& p = in_.points[size_t(hover_.point)];
      const auto tile = tiles_[p.kernel];
      ImGui::BeginTooltip();
      ImGui::Text("%s: %.1f TFLOP/s (%s)", p.kernel.c_str(), p.tflops, dtype_.c_str());
      ImGui::Text("intensity %.2f flop/byte: a %dx%d tile per global read, %d-byte elements", p.intensity, tile.first,
                  tile.second, elem_bytes_of(dtype_));
      if (l2_tbs_ > 0 && p.intensity > 0 && p.tflops > l2_tbs_ * p.intensity)
        ImGui::Text("at %.0f TFLOP/s its tiles came at %.2f TB/s, above the L2 line's %.2f", p.tflops,
                    p.tflops / p.intensity, l2_tbs_);
      ImGui::TextDisabled("click: select this rung");
      ImGui::EndTooltip();
      if (item.clicked) ctx.st.kernel = p.kernel;
    } else if (hover_.ceiling >= 0 && hover_.ceiling < int(in_.ceilings.size())) {
      const Ceiling& ce = in_.ceilings[size_t(hover_.ceiling)];
      ImGui::BeginTooltip();
      // Wrapped at a reading width: TextWrapped alone wraps at the tooltip's own width, which its first line sets,
      // and drew the source 90 px wide, a word broken every line.
      ImGui::PushTextWrapPos(ImGui::GetFontSize() * 32);
      ImGui::TextUnformatted(ce.label.c_str());
      ImGui::TextUnformatted(ce.source.c_str());
      // Checked in Nsight Compute (bench/NOTES.md, "Is the L2 line L2's limit?"): these loads keep L2 about half busy.
      if (ce.name == "l2")
        ImGui::TextUnformatted("Nsight Compute puts this probe at 51% of L2's peak throughput on an H100 (2026-12-07), "
                               "where hopper/01's TMA copies reach 73%: the line is what plain loads get from L2, not "
                               "L2's limit.");
      ImGui::PopTextWrapPos();
      ImGui::EndTooltip();
    }
  }

  std::string ExportDetail(const ViewContext& ctx) const override {
    return file_safe(family_of(selected_kernel(ctx.st))) + (dtype_.empty() ? "" : "_" + dtype_);
  }

 private:
  RooflineViewInput in_;
  std::string dtype_;
  std::map<std::string, std::pair<int, int>> tiles_;
  double l2_tbs_ = 0;       // the L2 line, TB/s (0: none measured)
  std::string l2_faster_;  // the rungs above it whose tiles come through shared memory: "03, 04"
  std::string l2_faster_rates_;  // and the rates their tiles came at: "03 at 8.0, 04 at 8.1 TB/s"
  RooflineHover hover_;
};

}  // namespace

std::unique_ptr<ViewPanel> make_roofline_panel() { return std::make_unique<RooflinePanel>(); }

}  // namespace gs
