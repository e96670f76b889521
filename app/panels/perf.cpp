// The throughput panel: the selected rung's ladder as bars beside cuBLAS of the same dtype, and its
// TFLOP/s over size (replay) or over time (live), the rung marked. Clicking a bar or a point selects
// that rung; hovering shows its numbers.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>

#include "app/gpu_worker.h"
#include "app/panels/panel.h"
#include "app/ui.h"
#include "core/variant.h"
#include "kernels/gemm.h"

namespace gs {
namespace {

// "NVIDIA H200 · SM 1755 of 1980 MHz · memory 3201 MHz · 612 of 700 W · 58 °C · clocks held back: power cap".
std::string device_line(const DeviceState& d) {
  std::string s = d.name.empty() ? "GPU" : d.name;
  if (d.sm_mhz > 0)
    s += " \xC2\xB7 SM " + std::to_string(d.sm_mhz) + (d.sm_max_mhz > 0 ? " of " + std::to_string(d.sm_max_mhz) : "") + " MHz";
  if (d.mem_mhz > 0) s += " \xC2\xB7 memory " + std::to_string(d.mem_mhz) + " MHz";
  if (d.power_w > 0) {
    char buf[64];
    std::snprintf(buf, sizeof buf, d.power_limit_w > 0 ? "%.0f of %.0f W" : "%.0f W", d.power_w, d.power_limit_w);
    s += std::string(" \xC2\xB7 ") + buf;
  }
  if (d.temperature_c >= 0) s += " \xC2\xB7 " + std::to_string(d.temperature_c) + " \xC2\xB0""C";
  const std::string held = d.throttled();
  s += held.empty() ? " \xC2\xB7 clocks not held back" : " \xC2\xB7 clocks held back: " + held;
  return s;
}

// "10_multistage[stages=2]" of "mma_f16/10_multistage[stages=2] f16.f32 2048^3": what a marker says.
std::string short_kernel(const std::string& key) {
  const std::string name = key.substr(0, key.find(' '));
  return name_in_family(name);
}

class PerfPanel : public ViewPanel {
 public:
  void Update(const ViewContext& ctx) override {
    in_ = input(ctx.f, ctx.st);
    if (ctx.st.perf_pin) {  // asked for from outside the toolbar (the window's --script)
      ctx.st.perf_pin = false;
      TogglePin();
      in_ = input(ctx.f, ctx.st);
    }
  }

  void Toolbar(const ViewContext& ctx, Flow& flow) override {
    // Live: pin the running kernel as a baseline, kept on the plot while others run, with the ratio to it.
    if (ctx.f.live && running_tflops_ > 0) {
      const char* label = baseline_label_.empty() ? "pin as baseline" : "unpin baseline";
      flow.next(Flow::button_w("pin as baseline"));
      if (ImGui::Button(label, ImVec2(Flow::button_w("pin as baseline"), 0))) TogglePin();
      if (ImGui::IsItemHovered())
        ImGui::SetTooltip("keep this kernel's TFLOP/s (mean of its last 50 samples) on the plot as a line, and show\n"
                          "the ratio of whatever runs next to it");
    }
    // Live: the size the plot measures at, a preset or any MxNxK, refused where it would not fit.
    if (ctx.f.live && ctx.f.live_state) {
      const float em = ImGui::GetFontSize();
      flow.next(em * 9);
      ImGui::SetNextItemWidth(em * 9);
      if (size_buf_[0] == 0 || ctx.st.live_size != size_shown_) {
        std::snprintf(size_buf_, sizeof size_buf_, "%s", ctx.st.live_size.c_str());
        size_shown_ = ctx.st.live_size;
      }
      if (ImGui::BeginCombo("##size", ("size " + ctx.st.live_size).c_str())) {
        for (int n : {1024, 2048, 4096, 8192}) {
          const std::string v = std::to_string(n) + "x" + std::to_string(n) + "x" + std::to_string(n);
          if (ui::combo_item(v.c_str(), v == ctx.st.live_size)) ChooseSize(ctx, v);
        }
        ImGui::TextDisabled("any size, then Enter:");
        ImGui::SetNextItemWidth(em * 8);
        if (ImGui::InputText("##custom", size_buf_, sizeof size_buf_, ImGuiInputTextFlags_EnterReturnsTrue)) {
          ChooseSize(ctx, size_buf_);
          ImGui::CloseCurrentPopup();
        }
        ImGui::EndCombo();
      }
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("the M x N x K the live plot measures the selected kernel at");
    }
    // Replay of a capture with a recorded live series: that series, or the curves over size.
    if (has_series_) {
      const char* label = ctx.st.perf_over_size ? "recorded series" : "over size";
      flow.next(Flow::button_w("recorded series"));
      if (ImGui::Button(label, ImVec2(Flow::button_w("recorded series"), 0))) ctx.st.perf_over_size = !ctx.st.perf_over_size;
      if (ImGui::IsItemHovered())
        ImGui::SetTooltip(ctx.st.perf_over_size ? "show the live series this capture recorded (with its toggles)"
                                                : "show each rung's TFLOP/s over size instead");
    }
    // A ladder measured in several dtypes (wmma: fp32 and fp16 accumulate) plots one at a time.
    if (dtypes_.size() < 2) return;
    for (const std::string& d : dtypes_) {
      flow.next(Flow::button_w(d.c_str()));
      const bool on = d == dtype_;
      if (on) ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyleColorVec4(ImGuiCol_ButtonActive));
      if (ImGui::Button(d.c_str())) ctx.st.perf_dtype = d;
      if (on) ImGui::PopStyleColor();
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("plot the %s curves over size", d.c_str());
    }
  }

  void Figure(Canvas& c, Rect r, const ViewContext& ctx, Vec2 mouse) override {
    draw_perf_view(c, r, ctx.theme, in_, mouse, &hover_);
  }

  void Interact(const ViewContext& ctx, const FigureItem& item) override {
    if (!item.hovered) return;
    std::string pick;
    if (hover_.bar >= 0 && hover_.bar < int(in_.bars.size())) {
      const PerfBar& b = in_.bars[hover_.bar];
      ImGui::BeginTooltip();
      ImGui::Text("%s  %s", b.kernel.c_str(), b.dtype.c_str());
      ImGui::Text("%.1f TFLOP/s, cuBLAS %.1f TFLOP/s: %.1f%% of cuBLAS", b.tflops, b.cublas_tflops,
                  b.cublas_tflops > 0 ? 100.0 * b.tflops / b.cublas_tflops : 0.0);
      ImGui::Text("relative error vs cuBLAS %.1e%s", b.rel_err, b.ok ? "" : "  (FAILED)");
      ImGui::TextDisabled("click: select this rung");
      ImGui::EndTooltip();
      pick = b.kernel;
    } else if (hover_.series >= 0 && hover_.series < int(in_.series.size())) {
      const PerfSeries& s = in_.series[hover_.series];
      const Vec2 p = s.points[hover_.point];
      ImGui::BeginTooltip();
      ImGui::Text("%s", s.label.c_str());
      if (ctx.f.live) ImGui::Text("%.1f s: %.1f TFLOP/s", p.x, p.y);
      else ImGui::Text("M = N = K = %d: %.1f TFLOP/s", int(p.x), p.y);
      if (!s.kernel.empty()) ImGui::TextDisabled("click: select this rung");
      ImGui::EndTooltip();
      pick = s.kernel;
    }
    if (item.clicked && !pick.empty()) ctx.st.kernel = pick;
  }

  std::string FigureCsv() const override { return perf_csv(in_); }

  std::string ExportDetail(const ViewContext& ctx) const override {
    return file_safe(family_of(selected_kernel(ctx.st))) + (dtype_.empty() ? "" : "_" + dtype_);
  }

 private:
  // The bars of the selected rung's family in every dtype it was measured in; the curves of one dtype
  // (st.perf_dtype, else the selected rung's first) with cuBLAS of that dtype; live: the running kernel.
  PerfViewInput input(const Frame& f, const ViewState& st) {
    PerfViewInput in;
    const Capture* c = f.capture;
    const std::string selected = selected_kernel(st), family = family_of(selected);
    in.title = family + " ladder";
    dtypes_.clear();
    if (f.live && f.live_state) {
      // Live: what the GPU is doing now (NVML), so a number can be trusted or not.
      const DeviceState& d = f.live_state->device;
      in.device_label = d.ok ? device_line(d) : (c ? c->device.name + " \xC2\xB7 " : std::string()) + d.error;
    } else if (c) {
      in.device_label = "Recorded numbers (a capture, not live): " + c->device.name + ", " +
                        std::to_string(c->device.sm_clock_mhz) + " MHz, driver " + c->device.driver + ", recorded " +
                        recorded_days(*c);
    }
    // The ladder's rungs, and of their variants only the selected one (beside its rung).
    auto shown = [&](const std::string& name) {
      return family_of(name) == family && (name.find('[') == std::string::npos || name == selected);
    };
    for (const std::string& name : kernel_names(c)) {
      if (!shown(name)) continue;
      for (const std::string& dtype : dtypes_of(c, name)) {
        if (std::find(dtypes_.begin(), dtypes_.end(), dtype) == dtypes_.end()) dtypes_.push_back(dtype);
        const RunRecord* r = ladder_run(c, name, dtype);
        if (!r) continue;
        PerfBar b;
        b.shape = shape_label(*r);
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
    // The title's size is the one most bars were measured at; a bar measured at another says its own. (The first
    // bar's set it: a capture whose sgemm/01 had no 4096^3 run titled every 4096^3 bar 256x256x256.)
    std::map<std::string, int> sizes;
    for (const PerfBar& b : in.bars) ++sizes[b.shape];
    for (const auto& [size, n] : sizes)
      if (in.shape_label.empty() || n > sizes[in.shape_label]) in.shape_label = size;
    for (PerfBar& b : in.bars)
      if (b.shape == in.shape_label) b.shape.clear();
    if (in.bars.empty() && c)
      in.empty_note = f.live ? "Measuring the " + family + " ladder..."
                             : "This capture holds no runs of the " + family +
                                   " ladder (it was recorded without them). `gemmscope record` on a GPU records them.";
    const std::vector<std::string> own = dtypes_of(c, selected);
    dtype_ = std::find(dtypes_.begin(), dtypes_.end(), st.perf_dtype) != dtypes_.end() ? st.perf_dtype
             : !own.empty()                                                             ? own.front()
             : dtypes_.empty()                                                          ? std::string()
                                                                                        : dtypes_.front();
    // A recorded live series (Capture::series) replays where the selected kernel itself ran in it (the rung, or a
    // variant its toggles ran), unless the toolbar asks for the curves over size. A variant the series never ran
    // (mma_f16/10[xor=off] beside a series of 10, [stages=2], [stages=3], [order=none]) gets the curves over size,
    // where it is drawn: a series of other kernels would leave it out of its own picture.
    has_series_ = false;  // the capture recorded a live series of the selected kernel
    if (!f.live && c)
      for (const SeriesPoint& p : c->series)
        if (p.kernel.substr(0, p.kernel.find(' ')) == selected) has_series_ = true;
    const bool replay_series = has_series_ && !st.perf_over_size;
    if ((f.live && f.live_state && !f.live_state->series.empty()) || replay_series) {
      // Live: the selected kernel measured back to back, with cuBLAS on the same size beside it; one stretch
      // per kernel since the last switches (toggles), each switch marked where it happened. Replay: the same
      // drawing of the series a live session recorded.
      std::vector<LiveSnapshot::Switch> switches;
      std::vector<LivePoint> points;
      std::string running;
      if (f.live) {
        switches = f.live_state->switches;
        points = f.live_state->series;
        running = f.live_state->series_kernel;
      } else {
        for (const SeriesPoint& p : c->series) {
          if (switches.empty() || switches.back().kernel != p.kernel) switches.push_back({p.t, p.kernel});
          points.push_back({p.t, p.tflops, p.cublas_tflops, p.sm_mhz});
        }
        running = switches.empty() ? "" : switches.back().kernel;
        in.device_label = "A live session's series, replayed from the capture: " + c->device.name + ", " + date_of(*c) +
                          "; the over-size curves: the toolbar's \"over size\"";
      }
      PerfSeries ref{"cuBLAS, same size", {}, false, "", true};
      std::vector<PerfSeries> stretches;
      std::set<std::string> plotted;  // the kernels the points ran
      size_t sw = 0;
      for (const LivePoint& p : points) {
        while (sw + 1 < switches.size() && p.t >= switches[sw + 1].t) ++sw;
        const std::string key = switches.empty() ? running : switches[sw].kernel;
        plotted.insert(key);
        if (stretches.empty() || stretches.back().label != key) {
          stretches.push_back({key, {}, key == running, key.substr(0, key.find(' ')), false});
          const size_t a = key.find(' '), b = key.rfind(' ');  // "K dtype MxNxK"
          if (a != std::string::npos && b > a) stretches.back().dtype = key.substr(a + 1, b - a - 1);
        }
        stretches.back().points.push_back({float(p.t), float(p.tflops)});
        ref.points.push_back({float(p.t), float(p.cublas_tflops)});
      }
      for (size_t i = 0; i < switches.size(); ++i) {
        // A toggle of the same rung says only what it set ("[stages=2]", "own"); another kernel its name.
        const std::string name = switches[i].kernel.substr(0, switches[i].kernel.find(' '));
        const std::string prev = i ? switches[i - 1].kernel.substr(0, switches[i - 1].kernel.find(' ')) : "";
        const size_t open = name.find('[');
        const std::string& key = switches[i].kernel;
        const std::string size = key.substr(key.rfind(' ') + 1);
        const std::string label =
            i && prev == name && switches[i - 1].kernel != key ? "size " + size
            : i && rung_of_variant(prev) == rung_of_variant(name)
                ? (open == std::string::npos ? std::string("its own") : name.substr(open))
                : short_kernel(key);
        const PerfViewInput::Marker m{float(switches[i].t), label};
        if (!points.empty() && switches[i].t > points.front().t) in.markers.push_back(m);
      }
      // The running stretch's mean over its last points, for the baseline and its ratio.
      running_label_ = f.live ? running : "";
      running_tflops_ = 0;
      if (f.live && !stretches.empty() && stretches.back().selected) {
        const auto& pts = stretches.back().points;
        const size_t n = std::min<size_t>(pts.size(), 50);
        for (size_t i = pts.size() - n; i < pts.size(); ++i) running_tflops_ += pts[i].y / double(n);
        const std::string ratio = baseline_ratio(running_tflops_, baseline_tflops_);
        if (!baseline_label_.empty() && !ratio.empty()) stretches.back().label += " \xC2\xB7 " + ratio;
      }
      in.series = {ref};
      // A kernel run again later (the rung's own order after its variants) keeps its colour and its one legend row.
      std::vector<std::string> keys;
      for (PerfSeries& st : stretches) {
        auto k = std::find(keys.begin(), keys.end(), st.label);
        if (k == keys.end()) k = keys.insert(keys.end(), st.label);
        st.colour = int(k - keys.begin());
        in.series.push_back(std::move(st));
      }
      in.series_x_label = "seconds";
      // The series runs at its own size (the live loop's 2048^3), the bars at the ladder's: the title says so where
      // they differ, or 10_multistage's 405 TFLOP/s line read as a contradiction of its 472 TFLOP/s bar.
      // (From what each plotted point ran, "K dtype MxNxK": a live stretch's label may end in its baseline ratio.)
      std::set<std::string> sizes;
      for (const std::string& key : plotted) sizes.insert(key.substr(key.rfind(' ') + 1));
      if (sizes.size() == 1 && !in.shape_label.empty()) {
        const std::string size = *sizes.begin();
        const bool cube = size.size() > 2 && size.compare(size.size() - 2, 2, "^3") == 0;
        const std::string n = cube ? size.substr(0, size.size() - 2) : "";
        if ((cube ? n + "x" + n + "x" + n : size) != in.shape_label)
          in.series_size_note = "at " + size + " (the bars: " + in.shape_label + ")";
      }
      in.baseline_label = f.live ? baseline_label_ : "";
      in.baseline_tflops = f.live ? baseline_tflops_ : 0;
    } else if (c) {
      // Replay: TFLOP/s over size for the family in one dtype, each curve measured at 2 sizes or more.
      for (const std::string& name : kernel_names(c)) {
        if (!shown(name)) continue;
        PerfSeries s{name_in_family(name), {}, name == selected, name, false};
        s.dtype = dtype_;
        for (const RunRecord* r : runs_of(*c, name))
          if (r->dtype == dtype_ && r->m == r->n && r->n == r->k) s.points.push_back({float(r->m), float(r->tflops)});
        if (s.points.size() >= 2) in.series.push_back(std::move(s));
      }
      // cuBLAS of that dtype over the same sizes: the curve every rung is chasing. Timed beside each of this
      // family's runs (not another family's, recorded in another process); the median of those at each size.
      std::map<int, std::vector<double>> cublas;
      for (const RunRecord& r : c->runs)
        if (family_of(r.kernel) == family && r.dtype == dtype_ && r.m == r.n && r.n == r.k && r.cublas_tflops > 0)
          cublas[r.m].push_back(r.cublas_tflops);
      if (cublas.size() >= 2 && !in.series.empty()) {
        PerfSeries s{"cuBLAS " + dtype_, {}, false, "", true};
        s.dtype = dtype_;
        for (auto& [m, tflops] : cublas) {
          std::nth_element(tflops.begin(), tflops.begin() + tflops.size() / 2, tflops.end());
          s.points.push_back({float(m), float(tflops[tflops.size() / 2])});
        }
        in.series.insert(in.series.begin(), std::move(s));
      }
      in.series_x_label = "M = N = K" + (dtype_.empty() ? "" : ", " + dtype_);
      in.series_log2_x = true;
    }
    return in;
  }

  // Sets the live size, or says why not: not MxNxK, or more than the GPU has free (A and B in the input type,
  // C and cuBLAS's reference C in the output type). A shape the kernel's rule refuses is refused by the worker's
  // run, which says so in the banner.
  void ChooseSize(const ViewContext& ctx, const std::string& text) {
    GemmShape s;
    if (!parse_shape(text, &s)) {
      ctx.st.message = "size '" + text + "' is not MxNxK (three positive numbers, e.g. 4096x4096x8192)";
      return;
    }
    const KernelInfo* k = find_kernel(selected_kernel(ctx.st));
    if (k && !k->precisions.empty()) {
      const std::string dtype = precision_name(k->precisions.front());
      const double in = dtype == "f32" || dtype == "tf32" ? 4 : 2, out = dtype == "f16.f16" ? 2 : 4;
      const double bytes = (double(s.m) * s.k + double(s.k) * s.n) * in + 2.0 * s.m * s.n * out;
      const DeviceState& d = ctx.f.live_state->device;
      if (d.memory_free > 0 && bytes > 0.9 * double(d.memory_free)) {
        char buf[200];
        std::snprintf(buf, sizeof buf, "size %s refused: %s needs about %.1f GB of GPU memory, the GPU has %.1f GB free",
                      text.c_str(), k->name.c_str(), bytes / 1e9, double(d.memory_free) / 1e9);
        ctx.st.message = buf;
        return;
      }
    }
    ctx.st.live_size = shape_text(s);
  }

  void TogglePin() {
    if (baseline_label_.empty() && running_tflops_ > 0) baseline_label_ = short_kernel(running_label_), baseline_tflops_ = running_tflops_;
    else baseline_label_.clear(), baseline_tflops_ = 0;
  }

  PerfViewInput in_;
  char size_buf_[64] = {};
  bool has_series_ = false;
  std::string size_shown_;
  std::string running_label_, baseline_label_;
  double running_tflops_ = 0, baseline_tflops_ = 0;
  PerfHover hover_;
  std::vector<std::string> dtypes_;  // the family's dtypes, in capture order
  std::string dtype_;                // the one the curves show
};

}  // namespace

std::unique_ptr<ViewPanel> make_perf_panel() { return std::make_unique<PerfPanel>(); }

}  // namespace gs
