#include "app/ratio_plot.h"

#include <algorithm>
#include <filesystem>
#include <map>

#include "app/panels/panel.h"

namespace gs {
namespace {

constexpr int kPickSize = 4096;  // the size the goals and README's table pick top rungs at

// "mma_f16/10" of "mma_f16/10_multistage": the rung as the legend names it.
std::string rung_short(const std::string& kernel) {
  const size_t slash = kernel.find('/'), cut = kernel.find('_', slash == std::string::npos ? 0 : slash);
  return slash == std::string::npos || cut == std::string::npos ? kernel : kernel.substr(0, cut);
}

struct Line {  // one colour: a family in one dtype
  std::string family, dtype;
};

}  // namespace

PerfViewInput ratio_over_size(const std::vector<RatioSource>& files) {
  PerfViewInput in;
  in.title = "Top rungs against cuBLAS over size";
  in.series_x_label = "M = N = K";
  in.series_log2_x = true;
  in.series_y_unit = kShareOfCublas;

  // What each file is called in the legend: its GPU, or its GPU and file where two files share one.
  std::vector<std::string> tag(files.size());
  std::map<std::string, int> models;
  for (const RatioSource& s : files) ++models[gpu_model(s.file.device)];
  for (size_t i = 0; i < files.size(); ++i) {
    const std::string model = gpu_model(files[i].file.device);
    const std::string stem = std::filesystem::path(files[i].path).stem().string();
    tag[i] = model.empty() ? stem : models[model] > 1 ? model + " " + stem : model;
  }

  // Per file and (family, dtype): the top rung, by its verified ratio at kPickSize^3.
  std::vector<Line> lines;
  std::vector<std::map<std::pair<std::string, std::string>, const Measured*>> top(files.size());
  for (size_t f = 0; f < files.size(); ++f) {
    for (const Measured& m : files[f].file.runs) {
      if (m.kernel.find('[') != std::string::npos || !m.ok || m.m != kPickSize || m.n != kPickSize || m.k != kPickSize)
        continue;
      const std::string fam = family_of(m.kernel);
      const Measured*& best = top[f][{fam, m.dtype}];
      if (!best || m.ratio > best->ratio) best = &m;
      if (std::none_of(lines.begin(), lines.end(), [&](const Line& l) { return l.family == fam && l.dtype == m.dtype; }))
        lines.push_back({fam, m.dtype});
    }
    if (top[f].empty())
      throw CaptureError(files[f].path + ": no verified run at " + std::to_string(kPickSize) + "x" +
                         std::to_string(kPickSize) + "x" + std::to_string(kPickSize) + " to pick the top rungs by");
  }
  // Families in the order the files list them, a family's dtypes together.
  std::map<std::string, size_t> family_rank;
  for (const Line& l : lines) family_rank.emplace(l.family, family_rank.size());
  std::stable_sort(lines.begin(), lines.end(),
                   [&](const Line& a, const Line& b) { return family_rank[a.family] < family_rank[b.family]; });
  std::map<std::string, int> dtypes_of_family;
  for (const Line& l : lines) ++dtypes_of_family[l.family];

  float x_lo = 1e30f, x_hi = 0;
  for (size_t li = 0; li < lines.size(); ++li)
    for (size_t f = 0; f < files.size(); ++f) {
      const auto it = top[f].find({lines[li].family, lines[li].dtype});
      if (it == top[f].end()) continue;
      const Measured& rung = *it->second;
      PerfSeries s;
      s.label = rung_short(rung.kernel) + (dtypes_of_family[lines[li].family] > 1 ? " " + rung.dtype : "") +
                " \xC2\xB7 " + tag[f];
      s.kernel = rung.kernel;
      s.dtype = rung.dtype;
      s.colour = int(li);
      s.dash = int(std::min<size_t>(f, 3));
      // Its verified square runs, one per size (the first where a file has two), smallest first.
      std::map<int, double> by_size;
      for (const Measured& m : files[f].file.runs)
        if (m.kernel == rung.kernel && m.dtype == rung.dtype && m.ok && m.m == m.n && m.n == m.k)
          by_size.emplace(m.m, m.ratio);
      for (const auto& [size, ratio] : by_size) {
        s.points.push_back({float(size), float(100 * ratio)});
        x_lo = std::min(x_lo, float(size));
        x_hi = std::max(x_hi, float(size));
      }
      in.series.push_back(std::move(s));
    }
  // cuBLAS of the same dtype: 100%, the line every rung is measured against.
  PerfSeries ref;
  ref.label = "cuBLAS = 100%";
  ref.reference = true;
  ref.points = {{x_lo, 100}, {x_hi, 100}};
  in.series.insert(in.series.begin(), std::move(ref));

  for (size_t f = 0; f < files.size(); ++f) {
    const MeasuredFile& m = files[f].file;
    in.device_label += (f ? " \xC2\xB7 " : "") + tag[f] + ": " + std::filesystem::path(files[f].path).filename().string() +
                       " (" + (m.capture ? "capture" : "bench") + (m.date.empty() ? "" : ", " + m.date) +
                       (m.cublas_paired ? ", cuBLAS beside each run" : ", cuBLAS once per size") + ")";
  }
  in.device_label += " \xC2\xB7 top rung: each family's best at " + std::to_string(kPickSize) + "\xC2\xB3";
  return in;
}

}  // namespace gs
