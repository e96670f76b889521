#include "app/panels/kernels.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <vector>
#include <cstdio>

#include "app/ui.h"
#include "core/variant.h"
#include "kernels/gemm.h"
#include "viz/draw_util.h"

namespace gs {
namespace {

std::string percent(const RunRecord& r) { return viz::fmt_share(r.tflops / r.cublas_tflops); }

std::string tflops(const RunRecord& r) { return viz::fmt_tflops(r.tflops); }

// What a variant's explanation says after its own change, in the window and in a picture alike.
std::string its_rung(const KernelInfo& rung) { return "Its rung, " + rung.name + ": " + rung.title + "."; }

// The widest rung name of the registry (variants are picked in combos, not listed), in `text_w`'s units.
float widest_rung_name(const std::function<float(const std::string&)>& text_w) {
  float name = 0;
  for (const KernelInfo& k : kernel_registry())
    if (k.name.find('[') == std::string::npos) name = std::max(name, text_w(name_in_family(k.name)));
  return name;
}

// The list's number columns: the TFLOP/s (or not) and the ratio (or not), its header and width.
struct ListColumns {
  bool num = true, ratio = true;
  const char* pct = "% of cuBLAS";
  float pct_w = 0;
};
// What a list `width` wide keeps so that every rung name stays whole (and at least 8 lines of text): the TFLOP/s
// beside "% of cuBLAS"; else beside "cuBLAS", the ratio's values ending in % ("63.5% [of] cuBLAS"); else the ratio
// alone (each row's tooltip still has the TFLOP/s); else the names alone, each row's tooltip having its numbers (a
// ratio kept beside names cut to 5 lines of text read "10_warp_..." at 250% on 1600x900, and a 300% zoom had shown
// "0 12.0%" under "K"). At 1600x900 and 100% the second: "11_block_128x256_k16" was cut.
// `widest` is widest_rung_name in the same font.
ListColumns list_columns(float width, float em, float widest, const std::function<float(const std::string&)>& text_w,
                         const std::function<float(const std::string&)>& header_w) {
  const float names = std::max(em * 8, widest), num_w = header_w("TFLOP/s");
  const float short_w = std::max(header_w("cuBLAS"), text_w("100.0%"));
  ListColumns cols;
  cols.pct_w = header_w("% of cuBLAS");
  if (width - num_w - cols.pct_w - em * 1.5f >= names) return cols;
  cols.pct = "cuBLAS", cols.pct_w = short_w;
  cols.num = width - num_w - short_w - em * 1.5f >= names;
  cols.ratio = cols.num || width - short_w - em * 1.5f >= names;
  return cols;
}

std::string toggle_title(const std::string& key) {
  const ToggleInfo* known = find_toggle(key);
  return known ? known->title : key;
}

// Whether a toggle's combo goes beside its title (`title_w` wide, in a row `row_w` wide): where the combo keeps
// about 8 lines of text ("cutlass:2  431 TFLOP/s"), else under it.
bool combo_beside(float row_w, float title_w, float em) { return row_w - title_w - ImGui::GetStyle().ItemSpacing.x >= em * 8; }

ImVec4 vec4(Color c) { return ImVec4(c.r / 255.f, c.g / 255.f, c.b / 255.f, c.a / 255.f); }

}  // namespace

float kernel_list_need(const std::function<float(const std::string&)>& text_w, float em) {
  // The share's column, the cells' padding and the list's scroll bar and frame.
  return widest_rung_name(text_w) + std::max(text_w("100.0%"), text_w("cuBLAS")) + em * 3.2f;
}

std::string neighbour_kernel(const Capture* c, const std::string& kernel, int step) {
  const std::vector<std::string> names = rung_names(c);  // variants are picked beside their rung, not stepped through
  auto it = std::find(names.begin(), names.end(), rung_of_variant(kernel));
  if (it == names.end()) return names.empty() ? kernel : names.front();
  const long i = std::clamp(long(it - names.begin()) + step, 0L, long(names.size()) - 1);
  return names[size_t(i)];
}

void KernelListPanel::Draw(const ViewContext& ctx) {
  const std::string selected = selected_kernel(ctx.st);
  const Capture* capture = ctx.f.capture;
  const float em = ImGui::GetFontSize();
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_ScrollY;
  // The list takes 60% of the panel, less where the rung's variant combos and six lines of its explanation would not
  // fit under it (a projector's zoom: four combos left the explanation one line).
  // The selected rung's variants, as toggles: key -> values, in registry order.
  const std::string rung = rung_of_variant(selected);
  const std::vector<std::string> variants = variants_of(capture, rung);
  std::map<std::string, std::vector<std::string>> values;
  for (const std::string& v : variants)
    for (const auto& [key, value] : variant_toggles(v)) values[key].push_back(value);
  float combos_h = values.empty() ? 0 : ImGui::GetStyle().ItemSpacing.y * 2 + 1;  // the separator
  for (const auto& [key, vals] : values)
    combos_h += ImGui::GetFrameHeightWithSpacing() *
                (combo_beside(ImGui::GetContentRegionAvail().x, ImGui::CalcTextSize(toggle_title(key).c_str()).x, em) ? 1 : 2);
  const float avail_h = ImGui::GetContentRegionAvail().y;
  const float list_h = std::max(em * 6, std::min(avail_h * 0.6f, avail_h - combos_h - em * 1.4f * 6));
  const float num_w = ImGui::CalcTextSize("TFLOP/s").x;
  // A narrow list (a laptop's window, a projector's zoom) keeps the names whole and the ratio; the TFLOP/s are in
  // each row's tooltip.
  const auto imgui_w = [](const std::string& s) { return ImGui::CalcTextSize(s.c_str()).x; };
  if (em != names_em_) names_w_ = widest_rung_name(imgui_w), names_em_ = em;
  const ListColumns cols = list_columns(ImGui::GetContentRegionAvail().x, em, names_w_, imgui_w, imgui_w);
  const bool show_num = cols.num;
  const float pct_w = cols.pct_w;
  if (ImGui::BeginTable("##kernels", 1 + show_num + cols.ratio, flags, ImVec2(0, list_h))) {
    const int pct_col = show_num ? 2 : 1;
    ImGui::TableSetupScrollFreeze(0, 1);
    // Scrolled past its family's name, the header names it: the rows under it said "13_stream_k" under no ladder.
    const std::string head = scrolled_family_.empty() ? "Kernel" : "Kernel \xC2\xB7 " + scrolled_family_;
    ImGui::TableSetupColumn(head.c_str(), ImGuiTableColumnFlags_WidthStretch);
    if (show_num) ImGui::TableSetupColumn("TFLOP/s", ImGuiTableColumnFlags_WidthFixed, num_w);
    if (cols.ratio) ImGui::TableSetupColumn(cols.pct, ImGuiTableColumnFlags_WidthFixed, pct_w);
    ImGui::TableHeadersRow();
    const std::map<std::string, std::string> fam_dtypes = family_dtypes(capture);
    std::string family, fam_dtype;
    bool row_tipped = false;
    // The selected row is revealed at 40% of the list's height, scrolled by whole rows so that no half-cut row
    // sits under the header (a picture's first row read as a sliver of "06_warp_64x64").
    std::vector<float> rows_y;  // each row's top in the list's content, as ImGui places them (not evenly: whole pixels)
    std::vector<std::string> rows_family;  // each row's family, "" for a family's own row
    float sel_y = -1;
    for (const std::string& name : rung_names(capture)) {
      const KernelInfo* info = find_kernel(name);
      const std::string fam = family_of(name);
      if (fam != family) {
        // The family's row names the dtype its numbers are in.
        family = fam;
        const auto d = fam_dtypes.find(fam);
        fam_dtype = d == fam_dtypes.end() ? "" : d->second;
        ImGui::TableNextRow();
        ImGui::TableSetColumnIndex(0);
        rows_y.push_back(ImGui::GetCursorPosY());
        rows_family.push_back("");
        ImGui::TextColored(vec4(ctx.theme.accent), "%s", fam.c_str());
        ui::note("family");
        if (!fam_dtype.empty() && (show_num || cols.ratio)) {
          ImGui::TableSetColumnIndex(1);
          const float col_w = show_num ? num_w : pct_w;
          ImGui::SetCursorPosX(ImGui::GetCursorPosX() + col_w - ImGui::CalcTextSize(fam_dtype.c_str()).x);
          ImGui::TextDisabled("%s", fam_dtype.c_str());
          ui::note("family dtype");
        }
      }
      // One row per rung, with the numbers of its family's dtype, or of its own where it has no run in that one,
      // saying so (the tooltip lists every dtype).
      const std::vector<std::string> dtypes = dtypes_of(capture, name);
      bool other_dtype = false;
      const std::string dtype = headline_dtype(dtypes, fam_dtype, &other_dtype);
      const bool is_sel = name == rung_of_variant(selected);  // a variant selects its rung's row
      // A variant selected shows on its rung's row: its toggles after the name, its numbers, as every view does.
      const std::string shown = is_sel ? selected : name;
      const RunRecord* r = dtype.empty() ? nullptr : ladder_run(capture, shown, dtype);
      ImGui::TableNextRow();
      ImGui::TableSetColumnIndex(0);
      const float row_y = ImGui::GetCursorPosY();  // in the list's content, whatever its scroll
      rows_y.push_back(row_y);
      rows_family.push_back(fam);
      ImGui::PushID(name.c_str());
      const float name_w = ImGui::GetContentRegionAvail().x;
      if (ImGui::Selectable("##row", is_sel, ImGuiSelectableFlags_SpanAllColumns | ImGuiSelectableFlags_AllowItemOverlap))
        ctx.st.kernel = name;
      if (is_sel && reveal_ > 0) sel_y = row_y;
      // One row's tooltip: on the pixel two rows share, both report hovered and their tooltips would stack.
      const bool row_hovered = ImGui::IsItemHovered() && !row_tipped;
      row_tipped = row_tipped || row_hovered;
      ImGui::SameLine(0, 0);
      const std::string label = name_in_family(shown);
      // A rung measured in another dtype than its family's rows says which after its name, where the name still fits
      // whole beside it (10_warp_128x64 f16.f16); else its numbers take the tag's colour and the tooltip says why.
      float tag_w = other_dtype ? ImGui::CalcTextSize(dtype.c_str()).x + em * 0.4f : 0;
      const bool tag_beside = other_dtype && ImGui::CalcTextSize(label.c_str()).x + tag_w <= name_w;
      if (!tag_beside) tag_w = 0;
      const float name_x = ImGui::GetCursorPosX();
      const bool cut = ui::text_fit(label, std::max(em, name_w - tag_w));
      ui::note("kernel name");
      if (tag_beside) {  // its numbers are in another dtype than the rows around it
        ImGui::SameLine(0, 0);
        ImGui::SetCursorPosX(name_x + name_w - tag_w + em * 0.4f);
        ImGui::TextColored(vec4(ctx.theme.warn), "%s", dtype.c_str());
        ui::note("kernel dtype");
      }
      if (row_hovered) {
        ImGui::BeginTooltip();
        ImGui::TextUnformatted(shown.c_str());
        if (shown != name) ImGui::TextDisabled("(a variant of %s: click the row for the rung itself)", name.c_str());
        if (info) {
          ImGui::PushTextWrapPos(em * 30);
          ImGui::TextUnformatted(info->title.c_str());
          ImGui::PopTextWrapPos();
        }
        if (other_dtype)
          ImGui::TextDisabled("measured in %s only: the other rows of %s show %s%s", dtype.c_str(), fam.c_str(),
                              fam_dtype.c_str(), tag_beside ? "" : " (its numbers in the colour of that note)");
        for (const std::string& d : dtypes)
          if (const RunRecord* rd = ladder_run(capture, shown, d))
            ImGui::Text("%-8s %7.1f TFLOP/s  %5.1f%% of cuBLAS (%s)", d.c_str(), rd->tflops,
                        rd->cublas_tflops > 0 ? 100.0 * rd->tflops / rd->cublas_tflops : 0.0, shape_label(*rd).c_str());
        if (const RunRecord* m = main_run(capture, name, ""); m && m != ladder_run(capture, name, ""))
          ImGui::TextDisabled("its launch order, timeline and memory views show its launch at %s",
                              shape_label(*m).c_str());
        if (cut) ImGui::TextDisabled("(name cut to fit the column: drag the list's edge to widen it)");
        ImGui::EndTooltip();
      }
      ImGui::PopID();
      if (show_num) {
        ImGui::TableSetColumnIndex(1);
        if (r) {
          const std::string v = tflops(*r);
          ImGui::SetCursorPosX(ImGui::GetCursorPosX() + num_w - ImGui::CalcTextSize(v.c_str()).x);
          if (other_dtype && !tag_beside) ImGui::TextColored(vec4(ctx.theme.warn), "%s", v.c_str());
          else ImGui::TextUnformatted(v.c_str());
        } else {
          ImGui::TextDisabled("%s", ctx.f.live ? "..." : "-");
        }
        ui::note("TFLOP/s");
      }
      if (!cols.ratio) continue;
      ImGui::TableSetColumnIndex(pct_col);
      if (!r && !show_num) {
        ImGui::TextDisabled("%s", ctx.f.live ? "..." : "-");
      } else if (r && r->cublas_tflops > 0) {
        const std::string v = percent(*r);
        ImGui::SetCursorPosX(ImGui::GetCursorPosX() + pct_w - ImGui::CalcTextSize(v.c_str()).x);
        if (other_dtype && !tag_beside) ImGui::TextColored(vec4(ctx.theme.warn), "%s", v.c_str());
        else ImGui::TextUnformatted(v.c_str());
        ui::note("% of cuBLAS");
      }
    }
    ImGui::TableNextRow(0, ImGui::GetTextLineHeight());  // blank, so that the list's end can fall on a whole row
    ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg0, IM_COL32(0, 0, 0, 0));
    if (sel_y >= 0) {
      // The row that, put where the first row is unscrolled, leaves the selected one nearest 40% down the rows.
      const float want = sel_y - 0.4f * (ImGui::GetWindowHeight() - rows_y.front());
      // Not past the end of the list (a rung at the end stays at the bottom, the rows above it still whole: the
      // blank row below lets the list stop on a whole row). The first frame does not know the end yet.
      const bool end_known = reveal_ < kRevealFrames;
      float scroll = 0;
      for (const float y : rows_y)
        if ((!end_known || y - rows_y.front() <= ImGui::GetScrollMaxY() + 0.5f) &&
            std::fabs(y - want) < std::fabs(scroll + rows_y.front() - want))
          scroll = y - rows_y.front();
      // The rows settle a frame or two after a change (the first frame's sat 5 px off the next's at 175%), so the
      // scroll is set again until it stands.
      if (end_known && std::fabs(scroll - ImGui::GetScrollY()) < 0.5f) reveal_ = 0;
      else ImGui::SetScrollY(scroll), --reveal_;
    }
    // The first row in sight (under the frozen header): a rung's row means its family's name scrolled out.
    scrolled_family_.clear();
    for (size_t i = 0; i < rows_y.size(); ++i)
      if (rows_y[i] - rows_y.front() >= ImGui::GetScrollY() - 0.5f) {
        scrolled_family_ = ImGui::GetScrollY() > 0.5f ? rows_family[i] : "";
        break;
      }
    ImGui::EndTable();
  }
  // The selected rung's variants: one combo per toggle (block order, pipeline stages, ...), each choice with its
  // measured TFLOP/s where the capture has it. A variant changes one toggle; a choice that would need two
  // changed at once is shown disabled, with the reason.
  const std::map<std::string, std::string> current = variant_toggles(selected);
  if (!values.empty()) ImGui::Separator();
  for (const auto& [key, vals] : values) {
    const ToggleInfo* known = find_toggle(key);
    const std::string title = toggle_title(key);
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(title.c_str());
    ui::note("toggle");
    if (combo_beside(ImGui::GetContentRegionAvail().x, ImGui::GetItemRectSize().x, em)) ImGui::SameLine();
    // The kernel a choice selects: the current toggles with this one set (or cleared for the rung's own).
    auto target = [&, key = key](const std::string* value) {
      std::map<std::string, std::string> t = current;
      if (value) t[key] = *value;
      else t.erase(key);
      return variant_name(rung, t);
    };
    auto measured = [&](const std::string& name) {
      const RunRecord* r = ladder_run(capture, name, "");  // its first dtype's run
      return r ? "  " + tflops(*r) + " TFLOP/s" : std::string();
    };
    const auto now = current.find(key);
    // The other toggles set ("stages=2"): this toggle's "its own" with them is that variant, not the rung, and is
    // named so ("its own (stages=2)  345 TFLOP/s", not "its own (10_multistage)" beside the variant's speed).
    std::string others;
    for (const auto& [k, v] : current)
      if (k != key) others += (others.empty() ? "" : ", ") + k + "=" + v;
    const std::string own = "its own (" + (others.empty() ? name_in_family(rung) : others) + ")";
    // The closed combo shows what fits its width (ImGui would clip mid-word): "its own (10_multistage)  473 TFLOP/s",
    // else "its own  473 TFLOP/s", else that cut with "...".
    const float preview_w = ui::combo_text_w(ImGui::GetContentRegionAvail().x);
    std::string shown = (now == current.end() ? own : now->second) + measured(selected);
    // Cut short with other toggles set, the name of what is set stays and the speed goes (the set toggle's combo
    // shows it): "its own  345 TFLOP/s" would read as the rung's speed.
    if (now == current.end() && ImGui::CalcTextSize(shown.c_str()).x > preview_w)
      shown = others.empty() ? "its own" + measured(selected) : own;
    shown = ui::elide(shown, preview_w);
    ImGui::SetNextItemWidth(-1);
    if (ImGui::BeginCombo(("##" + key).c_str(), shown.c_str())) {
      for (size_t i = 0; i <= vals.size(); ++i) {
        const std::string* value = i == 0 ? nullptr : &vals[i - 1];
        const std::string name = target(value);
        const bool exists = find_kernel(name) || !dtypes_of(capture, name).empty();
        // A choice not built says why in its label too (the tooltip says it at length).
        const std::string label = (value ? *value : own) + (exists      ? measured(name)
                                                                : others.empty() ? "  (not built)"
                                                                                 : "  (not built with " + others + ")");
        ImGui::PushID(int(i));
        if (ui::combo_item(label.c_str(), name == selected, exists ? 0 : ImGuiSelectableFlags_Disabled))
          ctx.st.kernel = name;
        ui::note((title + " variant entry " + std::to_string(i)).c_str());  // a test clicks it once drawn
        if (!exists && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
          ImGui::SetTooltip("not compiled: a variant changes one toggle of the rung, and %s is set too",
                            current.begin()->first == key && current.size() > 1 ? std::next(current.begin())->first.c_str()
                                                                                  : current.begin()->first.c_str());
        ImGui::PopID();
      }
      ImGui::EndCombo();
    }
    ui::note((title + " variant").c_str());
    // Replaying, a choice shows what was recorded, not a run made now: said, with where (a student had read the
    // TFLOP/s beside each choice as measured on the laptop).
    if (ImGui::IsItemHovered() && known)
      ui::tooltip(std::string(known->tip) +
                  (ctx.f.live || !capture ? std::string()
                                          : "\n\nIts TFLOP/s and traces are the capture's, recorded on " +
                                                (capture->device.name.empty() ? std::string("a GPU") : capture->device.name) +
                                                "; on a CUDA GPU the window runs the choice live."));
  }
  // What the selected rung adds: its title and explanation, written once in the rung's own file; for a
  // variant, what it changes and then its rung's.
  if (const KernelInfo* info = find_kernel(selected)) {
    const KernelInfo* base = find_kernel(rung);
    ImGui::Separator();
    ImGui::BeginChild("##about", ImVec2(0, 0), false);
    // Another rung's text starts at its top: scrolled down to read a variant's, the next rung's opened mid-paragraph.
    ImGuiStorage* kept = ImGui::GetStateStorage();  // the child's own: which rung its scroll belongs to
    const int shown = int(std::hash<std::string>{}(selected) & 0x7fffffff);
    if (kept->GetInt(ImGui::GetID("shown"), -1) != shown) {
      ImGui::SetScrollY(0);
      kept->SetInt(ImGui::GetID("shown"), shown);
    }
    ImGui::PushTextWrapPos(0);
    ImGui::PushStyleColor(ImGuiCol_Text, vec4(ctx.theme.accent));
    // A variant's toggles on a line of their own where the name wraps (ImGui would break "[order=cutlass:2]" mid-word).
    std::string heading = info->name;
    if (const size_t br = heading.find('['); br != std::string::npos) heading.insert(br, " ");
    ui::text_words(heading);
    ImGui::PopStyleColor();
    // A variant says first what it changes ("2 cp.async stages instead of 4"), then what its rung is: the rung's
    // text first had said "4 cp.async stages" above the variant of 2, its own line only after scrolling.
    if (base && base != info) {
      ui::text_words(info->adds, true);
      ui::text_words(its_rung(*base));
      ui::text_words(base->adds, true);
    } else {
      ui::text_words(info->title);
      ui::text_words(info->adds, true);
    }
    ImGui::Text("block tile %dx%d, %d threads", info->block_m, info->block_n, info->threads);
    if (!info->shape_rule.empty()) ImGui::TextDisabled("shapes: %s", info->shape_rule.c_str());
    ImGui::PopTextWrapPos();
    ImGui::EndChild();
  }
}

void draw_kernel_list(Canvas& c, Rect r, const ViewContext& ctx) {
  const Theme& t = ctx.theme;
  const float fs = 15, lh = fs * 1.45f, pad = 8;
  const std::string selected = selected_kernel(ctx.st);
  c.rect_filled(r, t.panel, 4);
  c.push_clip(r);
  // Two right-aligned columns as wide as their bold headers, the numbers ending where their header ends.
  const float num_w = c.text_size("TFLOP/s", fs, Font::SansBold).x;
  const auto text_w = [&](const std::string& s) { return c.text_size(s, fs).x; };
  const ListColumns cols = list_columns(  // as the window decides
      r.w() - 2 * pad, fs, widest_rung_name(text_w), text_w,
      [&](const std::string& s) { return c.text_size(s, fs, Font::SansBold).x; });
  const bool show_num = cols.num;
  const float pct_w = cols.pct_w;
  const float x_pct = r.max.x - pad, x_num = show_num ? x_pct - pct_w - pad : x_pct;
  const float name_w = (show_num ? x_num - num_w - pad : cols.ratio ? x_pct - pct_w - pad : x_pct) - (r.min.x + pad);
  float y = r.min.y + pad;
  c.text({r.min.x + pad, y}, "Kernel", t.text, fs, Align::Left, Font::SansBold);
  if (show_num) c.text({x_num, y}, "TFLOP/s", t.text, fs, Align::Right, Font::SansBold);
  if (cols.ratio) c.text({x_pct, y}, cols.pct, t.text, fs, Align::Right, Font::SansBold);
  y += lh;
  const float list_end = r.min.y + r.h() * 0.6f;
  const std::map<std::string, std::string> fam_dtypes = family_dtypes(ctx.f.capture);
  const std::vector<std::string> names = rung_names(ctx.f.capture);
  // Scrolled as the window scrolls to the selected rung (its row 40% down), when it lies past the rows shown.
  int skip = 0, sel_fam_row = -1;  // (the row of the selected rung's family name)
  {
    int row = 0, sel_row = -1, fam_row = 0;
    std::string fam;
    for (const std::string& name : names) {
      if (family_of(name) != fam) fam = family_of(name), fam_row = row++;
      if (name == rung_of_variant(selected)) sel_row = row, sel_fam_row = fam_row;
      ++row;
    }
    const int visible = int((list_end - y) / lh);
    if (sel_row >= visible) {
      skip = std::min(sel_row - int(visible * 0.4f), row - visible);
      if (sel_row - sel_fam_row < visible) skip = std::min(skip, sel_fam_row);  // its family's name shown too
    }
  }
  // Scrolled past its family's name (mma_f16/13 at a projector's zoom): that name pinned over the first row shown, so
  // the picture still says which ladder the rows are (an F12 picture had shown "13_stream_k" under no family).
  if (sel_fam_row >= 0 && skip > sel_fam_row) {
    const std::string sel_family = family_of(rung_of_variant(selected));
    const auto d = fam_dtypes.find(sel_family);
    c.text({r.min.x + pad, y}, sel_family, t.accent, fs);
    if (d != fam_dtypes.end()) c.text({x_num, y}, d->second, t.text_dim, fs, Align::Right);
    y += lh;
    ++skip;
  }
  int row = 0;
  std::string family, fam_dtype;
  for (const std::string& name : names) {
    if (y + lh > list_end) break;
    if (family_of(name) != family) {  // the family, and the dtype of its numbers
      family = family_of(name);
      const auto d = fam_dtypes.find(family);
      fam_dtype = d == fam_dtypes.end() ? "" : d->second;
      if (row++ >= skip) {
        c.text({r.min.x + pad, y}, family, t.accent, fs);
        c.text({x_num, y}, fam_dtype, t.text_dim, fs, Align::Right);
        y += lh;
      }
      if (y + lh > list_end) break;
    }
    if (row++ < skip) continue;
    const bool is_sel = name == rung_of_variant(selected);
    const std::string shown = is_sel ? selected : name;  // a variant on its rung's row, as in the window
    if (is_sel) c.rect_filled({{r.min.x + 2, y - 2}, {r.max.x - 2, y + lh - 4}}, viz::mix(t.accent, t.panel, 0.55f), 3);
    // A rung measured only in another dtype than its family's says which, in the name's column.
    bool other_dtype = false;
    const std::string dtype = headline_dtype(dtypes_of(ctx.f.capture, name), fam_dtype, &other_dtype);
    // Where the name would not fit whole beside the tag, the numbers take the tag's colour instead (as in the window).
    float tag_w = other_dtype ? c.text_size(dtype, fs).x + pad : 0;
    const bool tag_beside = other_dtype && c.text_size(name_in_family(shown), fs).x + tag_w <= name_w;
    if (!tag_beside) tag_w = 0;
    const Color num_ink = other_dtype && !tag_beside ? t.warn : t.text;
    c.text({r.min.x + pad, y}, viz::elide(c, name_in_family(shown), fs, Font::Sans, name_w - tag_w), t.text, fs);
    if (tag_beside) c.text({r.min.x + pad + name_w, y}, dtype, t.warn, fs, Align::Right);
    if (const RunRecord* run = dtype.empty() ? nullptr : ladder_run(ctx.f.capture, shown, dtype)) {
      if (show_num) c.text({x_num, y}, tflops(*run), num_ink, fs, Align::Right);
      if (cols.ratio && run->cublas_tflops > 0) c.text({x_pct, y}, percent(*run), num_ink, fs, Align::Right);
    }
    y += lh;
  }
  y = std::max(y, list_end) + pad;
  if (const KernelInfo* info = find_kernel(selected)) {
    const float w = r.w() - 2 * pad;
    c.text({r.min.x + pad, y}, info->name, t.accent, fs);
    y += lh;
    // As in the window: a variant's change first, then its rung. A paragraph the pane's foot cuts ends in "..." on
    // the last line that fits (an F12 picture's had stopped mid-sentence, "...wait out the 16th; 68").
    const KernelInfo* base = find_kernel(rung_of_variant(selected));
    const bool variant = base && base != info;
    const auto paragraph = [&](const std::string& text, Color ink, bool more_after) {
      const std::vector<std::string> lines = viz::wrap(c, text, fs, w);
      for (size_t i = 0; i < lines.size() && y + lh <= r.max.y; ++i, y += lh) {
        const bool cut = (i + 1 < lines.size() || more_after) && y + 2 * lh > r.max.y;
        c.text({r.min.x + pad, y}, viz::paragraph_line(c, lines[i], text, cut, fs, w), ink, fs);
      }
    };
    if (variant) paragraph(info->adds, t.text_dim, true);
    paragraph(variant ? its_rung(*base) : info->title, t.text, true);
    paragraph(variant ? base->adds : info->adds, t.text_dim, false);
  }
  c.pop_clip();
}

}  // namespace gs
