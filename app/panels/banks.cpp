// The bank-conflict panel: the selected rung's shared-memory sites from the capture's traces, opening on
// its worst access; a new rung keeps a site of the same name in view (01 -> 02 shows the access that changed),
// unless that site is conflict-free and another conflicts.
// On a rung with no conflict (opened fresh or stepped to) it shows the site the rung before conflicted on most:
// mma_tf32/02's B-fragment reads, the 4-way ones of 01, rather than its first store; where that rung had none
// either, the first site the rung adds (mma_f16/08's ldmatrix reads).
#include <imgui.h>

#include <algorithm>
#include <set>

#include "app/panels/panel.h"
#include "app/ui.h"

namespace gs {
namespace {


class BanksPanel : public ViewPanel {
 public:
  void Update(const ViewContext& ctx) override {
    const std::string kernel = traced_kernel(selected_kernel(ctx.st));  // an order variant: its rung's traces
    const Frame& f = ctx.f;
    const size_t records = f.capture ? f.capture->smem.size() : 0;
    // banks_input takes a few ms for a rung's ~500 records: redone only when what it reads changed. Sites
    // hold copies of their records, so a capture replaced since cannot leave it dangling.
    if (f.capture != input_capture_ || records != input_records_ || f.live != input_live_ || in_.kernel != kernel) {
      in_ = BanksViewInput{};
      compare_for_.clear();  // in_.compare_sites went with it
      in_.kernel = kernel;
      in_.live = f.live;
      if (f.capture) {
        in_.sites = smem_sites(*f.capture, kernel);
        in_.capture_has_smem = !f.capture->smem.empty();
        in_.kernel_recorded = !runs_of(*f.capture, kernel).empty() || !in_.sites.empty();
        if (in_.sites.empty() && family_of(kernel) == "hopper")
          in_.no_lane_addresses = kernel + " moves its tiles into shared memory with TMA and reads them with wgmma "
                                           "through matrix descriptors: no lane supplies an address. What decides its "
                                           "bank conflicts is the swizzle the tensor map and the descriptors name:";
        if (!in_.sites.empty())
          in_.traced_from = f.capture->device.name + (f.live ? ", live" : ", " + recorded_day(*f.capture, kernel, "smem"));
        in_.price = f.capture->smem_price;
        in_.price_from = f.capture->device.name;
      }
      input_capture_ = f.capture, input_records_ = records, input_live_ = f.live;
    }
    in_.shown_as = selected_kernel(ctx.st);
    if (kernel != kernel_) {
      kernel_ = kernel;
      ctx.st.banks = BanksViewState{};
      bool any_conflict = false;
      for (const SmemSite& s : in_.sites) any_conflict = any_conflict || s.conflicts > 0;
      // A rung with no conflict opens on the site the rung before conflicted on most, else on the first site the
      // rung adds (mma_f16/08's ldmatrix reads: its deck slide had shown the tile copies 03-10 all open on).
      if (f.capture && !any_conflict) {
        const std::string name = opening_site(*f.capture);
        if (!name.empty() || site_name_.empty()) site_name_ = name;
      }
      // The site of the same name, unless it is conflict-free where another site conflicts (rung 10 to its
      // [xor=off] variant: its 8-way ldmatrix reads, not the copies the rung opened on): then the worst.
      for (size_t i = 0; i < in_.sites.size(); ++i)
        if (in_.sites[i].name == site_name_ && (in_.sites[i].conflicts > 0 || !any_conflict)) ctx.st.banks.site = int(i);
    }
    // Another view (the code view's probe lines) asked for a site by name.
    if (!ctx.st.focus_site.empty()) {
      // A name this view does not know is left for the global-memory view (next in the table), which clears it.
      for (size_t i = 0; i < in_.sites.size(); ++i)
        if (in_.sites[i].name == ctx.st.focus_site)
          ctx.st.banks = BanksViewState{}, ctx.st.banks.site = int(i), ctx.st.focus_site.clear(), ctx.st.reveal = "banks";
    }
    UpdateCompare(ctx);
    pick_ = banks_pick(in_, ctx.st.banks);
    site_name_ = pick_.site >= 0 ? in_.sites[pick_.site].name : std::string();
  }

  // For a rung whose every site is conflict-free, the site it opens on: the one the rung it builds on conflicted on
  // most, else the first of its own sites whose name that rung has not (what the step adds); "" where neither is
  // (or no rung comes before).
  std::string opening_site(const Capture& capture) const {
    const std::string rung = rung_built_on(in_.kernel);
    if (rung.empty()) return "";
    BanksViewInput before;
    before.sites = smem_sites(capture, rung);
    const BanksPick p = banks_pick(before, BanksViewState{});
    if (p.site >= 0 && before.sites[size_t(p.site)].conflicts > 0) return before.sites[size_t(p.site)].name;
    for (const SmemSite& s : in_.sites)
      if (std::none_of(before.sites.begin(), before.sites.end(), [&](const SmemSite& b) { return b.name == s.name; }))
        return s.name;
    return "";
  }

  // Compare mode: the chosen rung's sites (default: the rung before this one in its family, else after).
  void UpdateCompare(const ViewContext& ctx) {
    const Frame& f = ctx.f;
    rungs_.clear();
    if (f.capture) {  // the capture's kernels in ladder order
      std::set<std::string> ran;
      for (const RunRecord& r : f.capture->runs) ran.insert(r.kernel);
      for (const std::string& n : kernel_names(f.capture))
        if (ran.count(n)) rungs_.push_back(n);
    }
    std::string other = compare_choice_;
    if (other.empty() || other == in_.kernel) other = rung_beside(rungs_, in_.kernel);
    if (!ctx.st.banks.compare || other.empty() || !f.capture) {
      in_.compare_kernel.clear(), in_.compare_sites.clear(), compare_for_.clear();
      return;
    }
    if (other != compare_for_ || f.capture != compare_capture_) {
      in_.compare_sites = smem_sites(*f.capture, other);
      compare_for_ = other, compare_capture_ = f.capture;
    }
    in_.compare_kernel = other;
  }

  void Toolbar(const ViewContext& ctx, Flow& flow) override {
    BanksViewState& b = ctx.st.banks;
    const float em = ImGui::GetFontSize();
    if (pick_.access) {
      std::vector<std::string> names;
      for (const SmemSite& site : in_.sites) names.push_back(site.name);
      const float w = flow.combo_w(names);
      flow.next(w);
      ImGui::SetNextItemWidth(w);
      if (ImGui::BeginCombo("##site", in_.sites[pick_.site].name.c_str())) {
        for (size_t i = 0; i < in_.sites.size(); ++i) {
          ImGui::PushID(int(i));
          if (ui::combo_item(in_.sites[i].name.c_str(), int(i) == pick_.site)) b.site = int(i), b.access = -1;
          ImGui::PopID();
        }
        ImGui::EndCombo();
      }
      // Which execution: warp and k-iteration where the capture has several, then which of that warp's
      // executions of the site (program order), 1-based as the caption counts them.
      // Sliders over the recorded values (a capture keeps, say, warps 0 and 7 and nothing between).
      auto pick_slider = [&](const char* id, const std::vector<int>& values, int current, const std::string& label) {
        const int at = int(std::find(values.begin(), values.end(), current) - values.begin());
        int i = std::min(at, int(values.size()) - 1);
        flow.next(em * 5.5f);
        ImGui::SetNextItemWidth(em * 5.5f);
        if (!ImGui::SliderInt(id, &i, 0, int(values.size()) - 1, label.c_str(), ImGuiSliderFlags_NoInput)) return current;
        return values[std::clamp(i, 0, int(values.size()) - 1)];
      };
      if (pick_.warps.size() > 1) {
        const int w = pick_slider("##bwarp", pick_.warps, pick_.warp, "warp " + std::to_string(pick_.warp));
        if (w != pick_.warp) b.site = pick_.site, b.warp = w, b.iteration = pick_.iteration, b.access = -1;
      }
      if (pick_.iterations.size() > 1) {
        const int it = pick_slider("##biter", pick_.iterations, pick_.iteration, iteration_name(pick_.iteration, true));
        if (it != pick_.iteration) b.site = pick_.site, b.iteration = it, b.warp = pick_.warp, b.access = -1;
      }
      if (pick_.count > 1) {
        flow.next(em * 8.5f);
        ImGui::SetNextItemWidth(em * 8.5f);
        int n = pick_.access->index + 1;
        const std::string fmt = "access %d of " + std::to_string(pick_.count);
        if (ImGui::SliderInt("##baccess", &n, 1, pick_.count, fmt.c_str()))
          b.site = pick_.site, b.warp = pick_.warp, b.iteration = pick_.iteration, b.access = n - 1;
        flow.next(Flow::button_w("worst"));
        if (ImGui::Button("worst")) b.access = -1;
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("the execution of this site with the most conflicts");
      }
    }
    if (!in_.sites.empty()) {
      flow.next(Flow::button_w("compare") + ImGui::GetFrameHeight());
      if (ImGui::Checkbox("compare", &b.compare)) UpdateCompare(ctx);
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("draw the same site of another rung beside this one");
      if (b.compare) {
        // As wide as the rung it shows (its list opens as wide as the longest): "mma_f16/11_tma_produ" was cut.
        const float w = flow.combo_w({in_.compare_kernel.empty() ? std::string("(none)") : in_.compare_kernel});
        flow.next(w);
        ImGui::SetNextItemWidth(w);
        if (ImGui::BeginCombo("##cmp", in_.compare_kernel.empty() ? "(none)" : in_.compare_kernel.c_str())) {
          for (size_t i = 0; i < rungs_.size(); ++i) {
            if (rungs_[i] == in_.kernel) continue;
            ImGui::PushID(int(i));
            if (ui::combo_item(rungs_[i].c_str(), rungs_[i] == in_.compare_kernel)) compare_choice_ = rungs_[i];
            ImGui::PopID();
          }
          ImGui::EndCombo();
        }
        UpdateCompare(ctx);
      }
    }
    if (b.highlight_lane >= 0) {
      const std::string label = "lane " + std::to_string(b.highlight_lane) + "  \xC3\x97";
      flow.next(Flow::button_w(label.c_str()));
      if (ImGui::Button(label.c_str())) b.highlight_lane = -1;
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("clear the highlighted lane");
    }
    pick_ = banks_pick(in_, b);  // the widgets may have changed it
    site_name_ = pick_.site >= 0 ? in_.sites[pick_.site].name : std::string();
  }

  void Figure(Canvas& c, Rect r, const ViewContext& ctx, Vec2 mouse) override {
    draw_banks_view(c, r, ctx.theme, in_, ctx.st.banks, mouse, &hover_);
  }

  void Interact(const ViewContext& ctx, const FigureItem& item) override;

  std::string ExportDetail(const ViewContext& ctx) const override {
    std::string d = file_safe(in_.kernel);
    if (pick_.site >= 0) d += "_" + file_safe(in_.sites[pick_.site].name);
    return d;
  }

 private:
  std::string kernel_;     // the rung the selection in ViewState::banks belongs to
  std::string site_name_;  // the site shown last frame: kept when the rung changes and has it too
  std::vector<std::string> rungs_;   // the capture's rungs, ladder order: what compare can pick
  std::string compare_choice_;       // picked in the toolbar; empty: the previous rung
  std::string compare_for_;          // the rung in_.compare_sites were read for
  const Capture* compare_capture_ = nullptr;
  BanksViewInput in_;
  const Capture* input_capture_ = nullptr;
  size_t input_records_ = 0;
  bool input_live_ = false;
  BanksPick pick_;
  BanksHover hover_;
};

void BanksPanel::Interact(const ViewContext& ctx, const FigureItem& item) {
  BanksViewState& b = ctx.st.banks;
  if (!item.hovered || !pick_.access) return;
  const SmemSite& site = in_.sites[pick_.site];
  const SmemAccess& a = pick_.access->access;
  const BankReport& rep = pick_.access->report;
  const int width = is_ldmatrix(site.op) ? 16 : site.width;  // ldmatrix rows are 16 bytes
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
    const SmemSite& s = in_.sites[hover_.site];
    ImGui::BeginTooltip();
    ImGui::Text("%s: %s, %d bytes per lane", s.name.c_str(), site_instruction(s).c_str(),
                s.width);
    ImGui::Text("%zu accesses: %d wavefronts, ideal %d, %d conflicts", s.accesses.size(), s.wavefronts, s.ideal,
                s.conflicts);
    ImGui::TextDisabled("click: show its worst access");
    ImGui::EndTooltip();
    if (item.clicked) b.site = hover_.site, b.access = -1, b.highlight_lane = -1;
  } else if (hover_.wavefront >= 0 && hover_.wavefront < int(rep.wavefront_banks.size())) {
    const BankSlot& slot = rep.wavefront_banks[hover_.wavefront][hover_.bank];
    const int phase = rep.wavefront_phase[hover_.wavefront], n = rep.phase_lanes;
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
      b.highlight_lane = slot.lanes.empty() || b.highlight_lane == slot.lanes.front() ? -1 : slot.lanes.front();
  } else if (hover_.lane >= 0) {
    ImGui::BeginTooltip();
    lane_line(hover_.lane);
    std::string waves;
    for (size_t w = 0; w < rep.wavefront_lanes.size(); ++w)
      for (int l : rep.wavefront_lanes[w])
        if (l == hover_.lane) waves += (waves.empty() ? "" : ", ") + std::to_string(w);
    if (!waves.empty()) ImGui::Text("served in wavefront %s", waves.c_str());
    else if (a.addr[hover_.lane]) ImGui::TextDisabled("%s reads no address from this lane", site_instruction(site).c_str());
    ImGui::TextDisabled("click: highlight this lane");
    ImGui::EndTooltip();
    if (item.clicked) b.highlight_lane = b.highlight_lane == hover_.lane ? -1 : hover_.lane;
  } else if (item.clicked) {
    b.highlight_lane = -1;
  }
}

}  // namespace

std::unique_ptr<ViewPanel> make_banks_panel() { return std::make_unique<BanksPanel>(); }

}  // namespace gs
