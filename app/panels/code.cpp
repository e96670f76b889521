// The code panel: the selected rung's source embedded at build time, diffed against the rung it builds on (the one
// before it, or its KernelInfo::builds_on) or one chosen, jumps between changes, the wheel scrolls, and a line
// whose probe records a shared-memory site shows that site in the bank view when clicked.
#include <imgui.h>

#include <algorithm>
#include <cctype>

#include "app/panels/panel.h"
#include "app/rung_sources.h"
#include "app/ui.h"
#include "core/text.h"
#include "kernels/gemm.h"

namespace gs {
namespace {

class CodePanel : public ViewPanel {
 public:
  void Update(const ViewContext& ctx) override {
    const std::string kernel = selected_kernel(ctx.st);
    if (kernel != kernel_) {  // a new rung opens at its main change, against the rung it builds on
      kernel_ = kernel;
      ctx.st.code_against.clear();
      ctx.st.code.selected = -1;
      jump_ = true;
    }
    // A toggle variant opens on its own source with the toggle's lines marked; "against:" still diffs it.
    const std::string against =
        ctx.st.code_against.empty() ? (toggle_symbols(kernel).empty() ? previous(kernel) : "-") : ctx.st.code_against;
    if (kernel != in_.kernel || against != built_against_) build(kernel, against);
    const std::vector<int> rows = code_rows(in_, ctx.st.code);
    if (jump_) {  // scroll so the change to see first sits a few lines from the top: the rung's main change
      // against the rung before (not its probe's site table) from the comment right above it, where the rung
      // explains it, or the line where the rung's file names its step ("// Step:"); a toggle variant's first marked
      // line
      const std::vector<int> starts = change_starts(in_.diff);
      const int at = !in_.toggle_note.empty() ? (starts.empty() ? -1 : starts.front())
                                              : opening(in_.diff, in_.old_lines, in_.new_lines);
      // Three rows above it for context where the pane shows a dozen or more (its last frame's count), fewer in a
      // smaller one: a pane of five rows opened mma_f16/01 with its Step line just under the fold (3 before a first
      // frame has counted them: a picture of its own is that frame).
      const int above = hover_.rows_shown > 0 ? std::min(3, hover_.rows_shown / 4) : 3;
      ctx.st.code.first = at < 0 ? 0 : std::max(0, row_of(rows, at) - above);
      jump_ = false;
    }
    ctx.st.code.first = std::clamp(ctx.st.code.first, 0, std::max(0, int(rows.size()) - 1));
  }

  void Toolbar(const ViewContext& ctx, Flow& flow) override {
    CodeViewState& s = ctx.st.code;
    const std::vector<int> rows = code_rows(in_, s);
    const std::vector<int> starts = change_starts(in_.diff);
    // Jumps between the changes: the first start above or below the top row.
    flow.next(Flow::button_w("previous change"));
    if (ImGui::Button("previous change"))
      for (auto it = starts.rbegin(); it != starts.rend(); ++it)
        if (row_of(rows, *it) - 3 < s.first) {
          s.first = std::max(0, row_of(rows, *it) - 3);
          break;
        }
    flow.next(Flow::button_w("next change"));
    if (ImGui::Button("next change"))
      for (int start : starts)
        if (row_of(rows, start) - 3 > s.first) {
          s.first = row_of(rows, start) - 3;
          break;
        }
    flow.next(Flow::checkbox_w("removed lines"));
    ImGui::Checkbox("removed lines", &s.show_removed);
    std::vector<std::string> names = {"(none)"};
    for (const KernelInfo& k : kernel_registry())
      if (k.name != kernel_ && rung_source(k.name)) names.push_back(k.name);
    const float w = flow.combo_w(names);
    flow.next(w);
    ImGui::SetNextItemWidth(w);
    const std::string preview =
        ui::elide(in_.against.empty() ? "against: (none)" : "against: " + in_.against,
                  ui::combo_text_w(w));
    if (ImGui::BeginCombo("##against", preview.c_str())) {
      for (const std::string& n : names)
        if (ui::combo_item(n.c_str(), n == in_.against || (n == "(none)" && in_.against.empty()))) {
          ctx.st.code_against = n == "(none)" ? std::string("-") : n;
          jump_ = true;
        }
      ImGui::EndCombo();
    }
  }

  void Figure(Canvas& c, Rect r, const ViewContext& ctx, Vec2 mouse) override {
    draw_code_view(c, r, ctx.theme, in_, ctx.st.code, mouse, &hover_);
  }

  void Interact(const ViewContext& ctx, const FigureItem& item) override {
    if (!item.hovered) return;
    CodeViewState& s = ctx.st.code;
    const ImGuiIO& io = ImGui::GetIO();
    if (io.MouseWheel != 0 && !io.KeyCtrl) s.first -= int(io.MouseWheel * 3);
    if (hover_.row < 0) return;
    const DiffLine& d = in_.diff[size_t(hover_.row)];
    const std::string site = d.new_line >= 0 && size_t(d.new_line) < in_.sites.size() ? in_.sites[size_t(d.new_line)] : "";
    if (!site.empty()) {
      const bool global = site.size() == 1;  // the probe's global sites are "A", "B", "C"
      if (global)
        ImGui::SetTooltip("this line records the global accesses of %s\nclick: show them in the global-memory view",
                          site.c_str());
      else
        ImGui::SetTooltip("this line records the shared-memory site '%s'\nclick: show it in the bank view", site.c_str());
      if (item.clicked) ctx.st.focus_site = site;
    }
    if (item.clicked) s.selected = d.new_line;
  }

  std::string ExportDetail(const ViewContext& ctx) const override {
    return file_safe(in_.kernel) + (in_.against.empty() ? "" : "_vs_" + file_safe(in_.against));
  }

 private:
  static int row_of(const std::vector<int>& rows, int diff_index) {
    return int(std::lower_bound(rows.begin(), rows.end(), diff_index) - rows.begin());
  }

  // The rung `kernel` builds on (rung_built_on), where its source is embedded; else "".
  static std::string previous(const std::string& kernel) {
    const std::string before = rung_built_on(kernel);
    return !before.empty() && rung_source(before) ? before : "";
  }

  // A rung's lines after its explanation block (drawn above the listing: the file's opening comment and
  // the namespace holding kTitle and kAdds), with a leading blank line dropped.
  static std::vector<std::string> body(const std::string& kernel, int* offset) {
    *offset = 0;
    const RungSource* src = rung_source(kernel);
    if (!src) return {};
    std::vector<std::string> lines = split_lines(src->text);
    size_t start = 0;
    for (size_t i = 0; i < lines.size() && i < 40; ++i)
      if (lines[i].rfind("}  // namespace gs::", 0) == 0) {
        start = i + 1;
        break;
      }
    if (start < lines.size() && lines[start].empty()) ++start;
    *offset = int(start);
    return {lines.begin() + long(start), lines.end()};
  }

  // The line with the rung's own name ("mma_f16_08_ldmatrix", "mma_f16/08_ldmatrix") made neutral, so that
  // two rungs' namespaces compare equal and the diff shows what the step changed.
  static std::string neutral(std::string line, const std::string& kernel) {
    const std::string base = kernel.substr(0, kernel.find('['));
    std::string ns = base;
    std::replace(ns.begin(), ns.end(), '/', '_');
    for (const std::string& name : {ns, base})
      for (size_t at = line.find(name); at != std::string::npos; at = line.find(name, at + 4))
        line.replace(at, name.size(), "RUNG");
    return line;
  }

  // The names a toggle variant's toggle sets in its kernel (ToggleInfo::symbols); empty for a rung and for an order
  // variant.
  static std::vector<std::string> toggle_symbols(const std::string& kernel) {
    std::vector<std::string> symbols;
    for (const auto& [key, value] : variant_toggles(kernel))
      if (const ToggleInfo* t = find_toggle(key)) symbols.insert(symbols.end(), t->symbols.begin(), t->symbols.end());
    return symbols;
  }

  // Whether the code part of `line` (before a // comment) names one of `symbols` as a whole word.
  static bool names_symbol(const std::string& line, const std::vector<std::string>& symbols) {
    const std::string code = line.substr(0, line.find("//"));
    const auto word = [](char ch) { return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_'; };
    for (const std::string& s : symbols)
      for (size_t at = code.find(s); at != std::string::npos; at = code.find(s, at + 1))
        if ((at == 0 || !word(code[at - 1])) && (at + s.size() == code.size() || !word(code[at + s.size()]))) return true;
    return false;
  }

  void build(const std::string& kernel, const std::string& against) {
    in_ = CodeViewInput{};
    built_against_ = against;
    in_.kernel = kernel;
    in_.against = against == "-" ? "" : against;
    if (const KernelInfo* k = find_kernel(kernel)) in_.title = k->title, in_.adds = k->adds;
    in_.new_lines = body(kernel, &in_.new_offset);
    if (!in_.against.empty()) in_.old_lines = body(in_.against, &in_.old_offset);
    // The rung before's "// Step:" line names its step, not a line this rung took away: left out of the diff (every
    // rung after a marked one showed it struck through).
    in_.old_lines.erase(std::remove_if(in_.old_lines.begin(), in_.old_lines.end(), is_step_line), in_.old_lines.end());
    std::vector<std::string> a, b;
    for (const std::string& l : in_.old_lines) a.push_back(neutral(l, in_.against));
    for (const std::string& l : in_.new_lines) b.push_back(neutral(l, kernel));
    in_.diff = line_diff(a, b);
    if (const std::vector<std::string> symbols = toggle_symbols(kernel); !symbols.empty() && in_.against.empty()) {
      int marked = 0;
      for (DiffLine& d : in_.diff) {  // against nothing every line came out added: only the toggle's stay marked
        const bool mark = d.new_line >= 0 && names_symbol(in_.new_lines[size_t(d.new_line)], symbols);
        d.kind = mark ? DiffLine::Kind::Added : DiffLine::Kind::Same;
        marked += mark;
      }
      in_.toggle_note = kernel.substr(kernel.find('[')) + ": the rung's own source; marked, the " +
                        std::to_string(marked) + " lines that name " + join_list(symbols) + ", what the toggle sets";
    }
    // The site names come from the whole file (the enum and the names may sit anywhere in it).
    const RungSource* src = rung_source(kernel);
    const std::vector<std::string> all = src ? split_lines(src->text) : std::vector<std::string>{};
    const std::vector<std::string> sites = probe_site_lines(all);
    in_.sites.assign(sites.begin() + std::min<long>(in_.new_offset, long(sites.size())), sites.end());
  }

  std::string kernel_;
  std::string built_against_;  // what build() was asked to diff against ("-": nothing)
  bool jump_ = true;
  CodeViewInput in_;
  CodeHover hover_;
};

}  // namespace

std::unique_ptr<ViewPanel> make_code_panel() { return std::make_unique<CodePanel>(); }

}  // namespace gs
