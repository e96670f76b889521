// The fragment-layout panel. It follows the selected rung: the rung's own instructions (KernelInfo::ops:
// its mma or wmma shape, then ldmatrix where the rung loads fragments with it) with the rung's warp
// tiling below; for a SIMT rung (sgemm), which has no fragments, its thread tiling instead. The op
// selector explores any op until "follow kernel" is picked again.
#include <imgui.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <optional>

#include "app/panels/panel.h"
#include "app/ui.h"
#include "core/files.h"
#include "viz/draw_util.h"
#include "core/layout.h"
#include "core/text.h"
#include "kernels/gemm.h"

namespace gs {
namespace {

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


WarpViewInput warp_input(const KernelInfo* k) {
  WarpViewInput in;
  if (!k) return in;
  in.kernel = k->name;
  if (k->family == "hopper")
    in.undescribed = "wgmma's unit is a warpgroup: each of the rung's math warpgroups owns 64 rows of the " +
                     std::to_string(k->block_m) + "\xC3\x97" + std::to_string(k->block_n) +
                     " block, every column of it (the layout above, repeated along N)";
  const WarpTiling& w = k->warps;
  in.block_m = k->block_m, in.block_n = k->block_n, in.block_k = w.block_k;
  in.warps_m = w.warps_m, in.warps_n = w.warps_n, in.warps_k = w.warps_k;
  in.warp_m = w.warp_m, in.warp_n = w.warp_n;
  in.op = w.op;
  in.frag_m = w.frag_m, in.frag_n = w.frag_n, in.frag_k = w.frag_k;
  in.producer_warps = w.producer_warps;
  in.frag_columns = w.frag_columns;
  in.b_per_tile_row = w.b_per_tile_row;
  return in;
}

ThreadViewInput thread_input(const KernelInfo* k) {
  ThreadViewInput in;
  if (!k) return in;
  const ThreadTiling& tt = k->thread_tiling;
  in.kernel = k->name;
  in.block_m = k->block_m, in.block_n = k->block_n, in.block_k = tt.block_k, in.threads = k->threads;
  in.warps_m = tt.warps_m, in.warps_n = tt.warps_n;
  in.threads_m = tt.threads_m, in.threads_n = tt.threads_n, in.column_major = tt.column_major;
  in.tm = tt.tm, in.tn = tt.tn, in.reps_m = tt.reps_m, in.reps_n = tt.reps_n;
  return in;
}

// The op the panel shows: the rung's own (follow) or the explored one; null for a SIMT rung followed.
const MmaOp* shown_op(const ViewState& st, const KernelInfo* k) {
  if (!st.layout_follow) return find_mma_op(st.layout_op);
  if (!k || k->ops.empty()) return nullptr;
  return find_mma_op(k->ops[std::clamp(st.layout_pick, 0, int(k->ops.size()) - 1)]);
}

// The instruction a rung opens on: the first of its own that the rung it builds on (KernelInfo::builds_on, else the
// rung before in its ladder) does not have, which is what the step adds (mma_f16/08's ldmatrix.x4; its layout picture
// had been 07's mma grids under another title), else its first.
int added_op(const KernelInfo* k) {
  const KernelInfo* before = k ? find_kernel(rung_built_on(k->name)) : nullptr;
  if (!before) return 0;
  for (size_t i = 0; i < k->ops.size(); ++i)
    if (std::find(before->ops.begin(), before->ops.end(), k->ops[i]) == before->ops.end()) return int(i);
  return 0;
}

// "ldmatrix.x4.trans" -> "ldmatrix .x4.trans", "mma.m16n8k16.f16" -> "mma m16n8k16": short button labels.
std::string short_op(const std::string& op) {
  if (op.rfind("ldmatrix", 0) == 0) return "ldmatrix" + op.substr(8);
  const size_t dot = op.find('.'), last = op.rfind('.');
  return last > dot ? op.substr(0, last) : op;
}

class LayoutPanel : public ViewPanel {
 public:
  void Update(const ViewContext& ctx) override {
    const std::string name = selected_kernel(ctx.st);
    kernel_ = find_kernel(name);
    if (name != last_kernel_) {  // a new rung opens on the instruction it adds, lane and warp cleared
      last_kernel_ = name;
      ctx.st.layout_pick = added_op(kernel_);
      ctx.st.layout.highlight_lane = -1;
      ctx.st.warp = 0;
      ctx.st.thread = 0;
    }
    op_ = shown_op(ctx.st, kernel_);
    threads_ = ctx.st.layout_follow && !op_ ? thread_input(kernel_) : ThreadViewInput{};
    // The rung's warp tiling is drawn with its own instruction: beside an explored op of another shape it would
    // describe tiles of that rung's mma under the other op's grids.
    const bool own_op = ctx.st.layout_follow || (kernel_ && op_ && std::find(kernel_->ops.begin(), kernel_->ops.end(),
                                                                                   op_->name) != kernel_->ops.end());
    warps_ = own_op ? warp_input(kernel_) : WarpViewInput{};
    if (!own_op && kernel_ && op_) {  // said as what it is: the rung's tiling belongs to its own instruction
      std::vector<std::string> mmas;  // the instructions its tiles are made of (not its ldmatrix loads)
      for (const std::string& o : kernel_->ops)
        if (const MmaOp* m = find_mma_op(o); m && m->kind != OpKind::Ldmatrix) mmas.push_back(o);
      warps_.undescribed = kernel_->name + "'s warp tiling is drawn with its own " +
                           (mmas.empty() ? std::string("instructions") : join_list(mmas, "and")) + ", not with " +
                           op_->name + ", explored here";
    }
    in_ = LayoutViewInput{};
    in_.op = op_;
    if (!op_) return;
    if (const auto* doc = documented_layouts(*op_))
      for (int i = 0; i < 3; ++i) in_.documented[i] = (*doc)[i] ? &*(*doc)[i] : nullptr;
    if (op_->kind == OpKind::Ldmatrix) in_.row_suppliers = ldmatrix_rows(*op_);
    if (op_->kind == OpKind::Ldmatrix && own_op && kernel_)  // the mma the rung's ldmatrix feeds
      for (const std::string& o : kernel_->ops)
        if (const MmaOp* m = find_mma_op(o); m && m->kind == OpKind::Mma && !in_.feeds) in_.feeds = m;
    if (ctx.f.capture) {
      for (int i = 0; i < 3; ++i)
        in_.traced[i] = find_layout(*ctx.f.capture, op_->name, operand_name(Operand(i)), "traced");
      if (in_.traced[0] || in_.traced[1] || in_.traced[2])
        in_.traced_from = ctx.f.capture->device.name + (ctx.f.live ? ", live" : ", " + date_of(*ctx.f.capture));
    }
    // A rung that only ever accumulates in f16 (wmma/10) beside a C traced with f32 accumulators: the picture's C is
    // not the rung's, and the trace of an f16 accumulator is not in the capture.
    if (in_.traced[2] && kernel_ && own_op && !kernel_->precisions.empty() && op_->c_type == "f32" &&
        std::all_of(kernel_->precisions.begin(), kernel_->precisions.end(),
                    [](Precision p) { return p == Precision::F16_F16; }))
      in_.c_note = "C: traced with f32 accumulators; " + kernel_->name +
                   " accumulates in f16, a fragment not traced";
  }

  void Toolbar(const ViewContext& ctx, Flow& flow) override {
    ViewState& st = ctx.st;
    const float em = ImGui::GetFontSize();
    // The rung's own instructions, one button each, where it has more than one.
    if (st.layout_follow && kernel_ && kernel_->ops.size() > 1) {
      for (size_t i = 0; i < kernel_->ops.size(); ++i) {
        const std::string label = short_op(kernel_->ops[i]);
        flow.next(Flow::button_w(label.c_str()));
        ImGui::PushID(int(i));
        const bool on = int(i) == std::clamp(st.layout_pick, 0, int(kernel_->ops.size()) - 1);
        if (on) ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_ButtonActive));
        if (ImGui::Button(label.c_str())) st.layout_pick = int(i), st.layout.highlight_lane = -1;
        if (on) ImGui::PopStyleColor();
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", kernel_->ops[i].c_str());
        ImGui::PopID();
      }
    }
    // TikZ for slides: each operand of the op shown, as `layout --format tex` writes it.
    flow.next(Flow::button_w("TikZ"));
    if (ImGui::Button("TikZ") && in_.op) {
      std::string wrote;
      try {
        for (int i = 0; i < 3; ++i) {
          const FragmentLayout* l = in_.documented[size_t(i)] ? in_.documented[size_t(i)] : in_.traced[size_t(i)];
          if (!l) continue;
          // A traced layout is what one GPU did: its name says which.
          const std::string gpu = l->source == "traced" ? gpu_model(ctx.f.capture) : "";
          const std::string path = export_path(st, "layout", file_safe(in_.op->name) + "_" + l->operand + "_" + l->source +
                                                                 (gpu.empty() ? "" : "_" + gpu), ".tex");
          write_file_atomic(path, layout_tikz(*l, ctx.theme));
          wrote += (wrote.empty() ? "" : ", ") + path;
          st.last_export = path;
        }
        st.message = wrote.empty() ? "no layout to write" : "wrote " + wrote;
      } catch (const std::exception& e) {
        st.message = std::string("TikZ export failed: ") + e.what();
      }
    }
    ui::note("TikZ");
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("write each operand as a standalone TikZ picture (.tex, pdflatex)");
    // Explore: any op; "follow kernel" returns to the rung's own.
    std::vector<std::string> choices = {"follow kernel"};
    for (const MmaOp& op : mma_ops()) choices.push_back(op.name);
    const float combo_w = flow.combo_w(choices);
    flow.next(combo_w);
    ImGui::SetNextItemWidth(combo_w);
    const std::string preview = st.layout_follow ? "follow kernel" : st.layout_op;
    if (ImGui::BeginCombo("##op", preview.c_str())) {
      if (ui::combo_item("follow kernel", st.layout_follow)) st.layout_follow = true;
      ImGui::Separator();
      for (const MmaOp& op : mma_ops()) {
        if (ui::combo_item(op.name.c_str(), !st.layout_follow && op.name == st.layout_op)) {
          st.layout_follow = false;
          st.layout_op = op.name;
          st.layout.highlight_lane = -1;
        }
      }
      ImGui::EndCombo();
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("the instruction shown: the selected rung's own, or any op to explore");
    if (!threads_.described() && op_) {
      flow.next(Flow::checkbox_w("documented"));
      ImGui::Checkbox("documented", &st.layout.show_documented);
      flow.next(Flow::checkbox_w("traced"));
      ImGui::Checkbox("traced", &st.layout.show_traced);
      flow.next(Flow::checkbox_w("warp tiling"));
      ImGui::Checkbox("warp tiling", &st.show_warps);
      const int n_warps = warps_.described() ? warps_.warps_m * warps_.warps_n * std::max(1, warps_.warps_k) : 1;
      st.warp = std::clamp(st.warp, 0, n_warps - 1);
      if (st.show_warps && warps_.described() && n_warps > 1) {
        flow.next(em * 6);
        ImGui::SetNextItemWidth(em * 6);
        ImGui::SliderInt("##warp", &st.warp, 0, n_warps - 1, "warp %d");
      }
    } else if (threads_.described()) {
      st.thread = std::clamp(st.thread, 0, threads_.threads - 1);
      flow.next(em * 7);
      ImGui::SetNextItemWidth(em * 7);
      ImGui::SliderInt("##thread", &st.thread, 0, threads_.threads - 1, "thread %d");
    }
    // The highlighted lane's chip only where it fits on the toolbar's last row: a chip that came with the click wrapped
    // the toolbar to another row, and the figure re-laid itself out from under the mouse (A x B = C in one row, the
    // warp tiling gone). Without it the figure's title names the lane, and a click on it clears it.
    if (st.layout.highlight_lane >= 0 && !threads_.described()) {
      const std::string label = "lane " + std::to_string(st.layout.highlight_lane) + "  \xC3\x97";
      if (flow.fits(Flow::button_w(label.c_str()))) {
        flow.next(Flow::button_w(label.c_str()));
        if (ImGui::Button(label.c_str())) st.layout.highlight_lane = -1;
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("clear the highlighted lane");
      }
    }
  }

  enum class Warps { None, Beside, Under, Words };
  // What the warp tiling's place was chosen for, so that the dry runs are not repeated every frame.
  struct WarpsKey {
    float w = -1, h = -1;
    const MmaOp* op = nullptr;
    const KernelInfo* kernel = nullptr;
    bool show = false, documented = false, traced = false;  // the toggles that set which grids are drawn
    std::array<const FragmentLayout*, 3> layouts{};
    bool operator==(const WarpsKey& o) const {
      return w == o.w && h == o.h && op == o.op && kernel == o.kernel && show == o.show &&
             documented == o.documented && traced == o.traced && layouts == o.layouts;
    }
  };
  WarpsKey warps_key_;
  Warps warps_where_ = Warps::None;

  // Wide: the warp tiling at the right, where the fragments keep about 30 lines of text, the width their grids
  // need in a row (A x B = C); narrower, under them (Under: drawn where the pane is tall enough, else in words).
  Warps default_warps(Rect r, const ViewState& st) const {
    if (!st.show_warps) return Warps::None;
    if (warps_.described() && r.w() > r.h() * 1.5f && r.w() * 0.66f >= kMinTextSize * 30) return Warps::Beside;
    return Warps::Under;
  }

  // Places (and with `draw`, draws) the warp tiling as `w` says; returns the room left for the fragments.
  Rect place_warps(Canvas& c, Rect r, Warps w, const ViewContext& ctx, bool draw) {
    const ViewState& st = ctx.st;
    Rect top = r;
    if (draw) warps_rect_ = Rect{{r.min.x, r.max.y}, r.max};
    if (w == Warps::None) return top;
    if (w == Warps::Beside) {
      const float x = r.max.x - std::round(r.w() * 0.34f);
      top.max.x = x;
      if (draw) warps_rect_ = Rect{{x, r.min.y}, r.max}, draw_warp_view(c, warps_rect_, ctx.theme, warps_, st.warp);
      return top;
    }
    // Under the fragments, about a third (one line for an undescribed rung).
    // An undescribed rung's sentence (the hopper rungs') gets one line: their wgmma pictures need the height.
    const float h = warps_.described() ? std::round(std::clamp(r.h() * 0.32f, kMinTextSize * 12, r.h() * 0.45f))
                                       : kMinTextSize * 2.5f;
    const float y = r.max.y - std::min(h, r.h() * 0.5f);
    if (warps_.described() && (w == Warps::Words || y - r.min.y < kMinTextSize * 20)) {
      // Too short a pane for both (the fragments' pictures would shrink to nothing under their labels), or the
      // drawing would cost their lane numbers: the fragments keep the room, and a few lines under them say the
      // tiling in words and where its picture is.
      const float size = kMinTextSize, lh = size * 1.3f;
      const std::string words = "Warp tiling (" + viz::hint("maximise this view to see it drawn", "a larger picture draws it") +
                                "): " + warp_heading(warps_) + ".";
      std::vector<std::string> lines = viz::wrap_lines(c, words, size, r.w() - 20, 3);
      // Where three lines would leave the fragments less than about 13 lines of text (their titles, a header
      // line and 16 rows of cells at 3 px: the live window at 200% on 1600x900 drew no grid at all), one line.
      // Given way for the lane numbers, one line too.
      if (w == Warps::Words || r.h() - lh * float(lines.size()) - size < kMinTextSize * 13)
        lines = viz::wrap_lines(c, words, size, r.w() - 20, 1);
      float line_y = r.max.y - lh * float(lines.size()) - size * 0.5f;
      top.max.y = line_y - size * 0.4f;
      for (const std::string& line : draw ? lines : std::vector<std::string>{}) {
        c.text({r.min.x + 10, line_y}, line, ctx.theme.text_dim, size);
        line_y += lh;
      }
      return top;
    }
    top.max.y = y;
    if (draw) warps_rect_ = Rect{{r.min.x, y}, r.max}, draw_warp_view(c, warps_rect_, ctx.theme, warps_, st.warp);
    return top;
  }

  void Figure(Canvas& c, Rect r, const ViewContext& ctx, Vec2 mouse) override {
    const ViewState& st = ctx.st;
    hover_ = LayoutHover{};
    thread_hover_ = ThreadHover{};
    warps_rect_ = Rect{{r.min.x, r.max.y}, r.max};
    if (threads_.described()) {
      draw_thread_view(c, r, ctx.theme, threads_, st.thread, mouse, &thread_hover_);
      return;
    }
    if (!op_) {
      const std::string k = selected_kernel(st);
      const std::string why =
          !ctx.st.layout_follow ? "unknown op " + st.layout_op
          : "no fragment layout or thread tiling described for " + k;
      float y = r.min.y + 12;
      for (const std::string& line : viz::wrap(c, why, kMinTextSize * 1.1f, r.w() - 24)) {
        c.text({r.min.x + 12, y}, line, ctx.theme.text_dim, kMinTextSize * 1.1f);
        y += kMinTextSize * 1.5f;
      }
      return;
    }
    // Where the warp tiling goes: at the right of a wide pane, under the fragments, or in a few words under them.
    // A drawn tiling gives way to the words where it would cost the fragments' cells their lane numbers and the
    // words leave them room for them (wmma/05 at 150% on 1600x900 and mma_f16 at 200% on 1920x1080 had been colour
    // only). Up to three dry runs of the fragments' layout, on a canvas that draws nothing, when the pane or the
    // picture changes.
    const WarpsKey key{r.w(), r.h(), op_, kernel_, st.show_warps, st.layout.show_documented, st.layout.show_traced,
                       in_.traced};
    Warps where = default_warps(r, st);
    if (key == warps_key_) {
      where = warps_where_;  // the dry runs' answer for this pane and picture, from an earlier frame
    } else if (where == Warps::Beside || (where == Warps::Under && warps_.described())) {
      const auto labelled = [&](Warps w) {
        MeasureCanvas dry(c);
        LayoutHover h;
        draw_layout_view(dry, place_warps(dry, r, w, ctx, false), ctx.theme, in_, st.layout, {-1, -1}, &h);
        return h.labelled;
      };
      if (!labelled(where))
        for (const Warps w : {Warps::Under, Warps::Words})
          if (w != where && labelled(w)) {
            where = w;
            break;
          }
    }
    warps_key_ = key, warps_where_ = where;
    const Rect top = place_warps(c, r, where, ctx, true);
    draw_layout_view(c, top, ctx.theme, in_, st.layout, mouse, &hover_);
  }

  void Interact(const ViewContext& ctx, const FigureItem& item) override {
    ViewState& st = ctx.st;
    if (!item.hovered) return;
    if (threads_.described()) {
      if (thread_hover_.thread < 0) return;
      const int t = thread_hover_.thread;
      ImGui::SetTooltip("C[%d][%d] of the block tile: thread %d (warp %d, lane %d)\nclick: show what this thread computes "
                        "and reads",
                        thread_hover_.row, thread_hover_.col, t, t / 32, t % 32);
      if (item.clicked) st.thread = t;
      return;
    }
    if (warps_rect_.contains(item.mouse) && warps_.described()) {
      const int n = warps_.warps_m * warps_.warps_n * std::max(1, warps_.warps_k);
      ImGui::SetTooltip("%s\nclick: next warp", warp_caption(warps_, st.warp).c_str());
      if (item.clicked) st.warp = (st.warp + 1) % n;
      return;
    }
    if (hover_.valid && !hover_.holders.empty() && in_.op) {
      ImGui::BeginTooltip();
      const Operand o = Operand(hover_.operand);
      ImGui::Text("%s[%d][%d]  (%s)", operand_name(o), hover_.row, hover_.col, hover_.traced ? "traced" : "documented");
      for (const LayoutCell& h : hover_.holders) {
        const RegSlot reg = register_of(*in_.op, o, h.elem);
        if (in_.op->kind == OpKind::Wgmma) {  // a "lane" of a wgmma layout is a thread of the warpgroup
          ImGui::Text("thread %3d (warp %d, lane %2d)  register d%d", h.lane, h.lane / 32, h.lane % 32, h.elem);
          continue;
        }
        ImGui::Text("lane %2d  elem %2d  reg %d%s", h.lane, h.elem, reg.reg,
                    reg.parts > 1 ? (reg.part == 0 ? " (low)" : reg.parts == 2 ? " (high)" : " (byte)") : "");
      }
      ImGui::TextDisabled(in_.op->kind == OpKind::Wgmma ? "click: highlight this thread's registers"
                                                          : "click: highlight this lane in every operand");
      ImGui::EndTooltip();
      if (item.clicked) {
        const int lane = hover_.holders.front().lane;
        st.layout.highlight_lane = st.layout.highlight_lane == lane ? -1 : lane;
      }
    } else if (item.clicked) {
      st.layout.highlight_lane = -1;
    }
  }

  std::string ExportDetail(const ViewContext& ctx) const override {
    const std::string k = file_safe(selected_kernel(ctx.st));
    if (threads_.described()) return k + "_threads";
    return op_ ? (ctx.st.layout_follow ? k + "_" : std::string()) + op_->name : k;
  }

 private:
  const KernelInfo* kernel_ = nullptr;
  std::string last_kernel_;
  const MmaOp* op_ = nullptr;
  LayoutViewInput in_;
  WarpViewInput warps_;
  ThreadViewInput threads_;
  Rect warps_rect_;
  LayoutHover hover_;
  ThreadHover thread_hover_;
};

}  // namespace

std::unique_ptr<ViewPanel> make_layout_panel() { return std::make_unique<LayoutPanel>(); }

}  // namespace gs
