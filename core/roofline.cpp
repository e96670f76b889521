#include "core/roofline.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace gs {

double tile_intensity(int tile_m, int tile_n, int elem_bytes) {
  if (tile_m <= 0 || tile_n <= 0 || elem_bytes <= 0) return 0;
  return 2.0 * tile_m * tile_n / (double(tile_m + tile_n) * elem_bytes);
}

double attainable(double intensity, double bandwidth_tbs, double peak_tflops) {
  return std::min(peak_tflops, bandwidth_tbs * intensity);
}

double ridge(double bandwidth_tbs, double peak_tflops) { return bandwidth_tbs > 0 ? peak_tflops / bandwidth_tbs : 0; }

namespace {

std::string num(double v) {
  char b[32];
  std::snprintf(b, sizeof b, v >= 100 ? "%.0f" : v >= 10 ? "%.1f" : "%.2f", v);
  return b;
}

}  // namespace

std::vector<Ceiling> roofline_ceilings(const std::vector<Peak>& peaks, const std::string& family, const std::string& dtype,
                                       const std::vector<RunRecord>& runs) {
  const bool f16 = dtype.rfind("f16", 0) == 0;
  const bool f16_acc = f16 && dtype != "f16.f32";  // no peak measured: cuBLAS as timed beside the runs
  const bool simt = family == "sgemm";
  std::vector<std::pair<std::string, std::string>> wanted = {{"dram", "DRAM"}, {"l2", "L2"}};
  if (simt) {
    wanted.push_back({"ffma", "FFMA pipe"});
    wanted.push_back({"fp32", "cuBLAS SGEMM"});
  } else if (f16) {
    if (family != "hopper") wanted.push_back({"mma_sync_f16", "mma.sync f16.f32"});
    if (family == "hopper" && !f16_acc) wanted.push_back({"wgmma_f16", "wgmma f16.f32"});
    if (!f16_acc) wanted.push_back({"tensor_f16_f32", "cuBLAS f16.f32"});
  } else {
    if (family != "hopper") wanted.push_back({"mma_sync_tf32", "mma.sync tf32"});
    wanted.push_back({"tf32", "cuBLAS tf32"});
  }
  std::vector<Ceiling> out;
  for (const auto& [name, words] : wanted) {
    for (const Peak& p : peaks) {
      if (p.name != name || !(p.value > 0) || !std::isfinite(p.value)) continue;
      Ceiling c;
      c.name = name;
      c.bandwidth = p.unit == "TB/s";
      c.value = p.value;
      c.label = words + " " + num(p.value) + (c.bandwidth ? " TB/s" : " TFLOP/s");
      c.source = p.source;
      out.push_back(c);
      break;
    }
  }
  if (f16_acc) {
    std::vector<double> cublas;
    for (const RunRecord& r : runs)
      if (r.dtype == dtype && r.m == 4096 && r.n == 4096 && r.k == 4096 && r.cublas_tflops > 0 &&
          std::isfinite(r.cublas_tflops))
        cublas.push_back(r.cublas_tflops);
    if (!cublas.empty()) {
      std::sort(cublas.begin(), cublas.end());
      const size_t n = cublas.size();
      Ceiling c;
      c.name = "cublas_" + dtype;
      c.value = n % 2 ? cublas[n / 2] : (cublas[n / 2 - 1] + cublas[n / 2]) / 2;
      c.label = "cuBLAS " + dtype + " " + num(c.value) + " TFLOP/s";
      c.source = "cuBLAS of the same dtype timed beside the capture's " + dtype + " runs at 4096^3, the median of " +
                 std::to_string(n) + " (the capture's peaks hold cuBLAS with fp32 accumulate only)";
      out.push_back(c);
    }
  }
  return out;
}

float LogAxes::px(double x) const {
  const double t = (std::log10(std::max(x, 1e-30)) - std::log10(x0)) / (std::log10(x1) - std::log10(x0));
  return left + float(t) * (right - left);
}

float LogAxes::py(double y) const {
  const double t = (std::log10(std::max(y, 1e-30)) - std::log10(y0)) / (std::log10(y1) - std::log10(y0));
  return bottom - float(t) * (bottom - top);
}

void log_bounds(const std::vector<double>& v, double* lo, double* hi) {
  double mn = 0, mx = 0;
  for (double x : v) {
    if (!(x > 0) || !std::isfinite(x)) continue;
    mn = mn == 0 ? x : std::min(mn, x);
    mx = std::max(mx, x);
  }
  if (mx == 0) mn = 1, mx = 10;
  *lo = std::pow(10.0, std::floor(std::log10(mn)));
  *hi = std::pow(10.0, std::ceil(std::log10(mx)));
  if (*hi <= *lo) *hi = *lo * 10;
}

}  // namespace gs
