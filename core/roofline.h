// The roofline model: attainable throughput = min(compute ceiling, bandwidth x arithmetic intensity), and
// the intensity a tiled GEMM reaches from its tiling. Pure arithmetic, unit-tested; viz/ draws it.
#pragma once

#include <string>
#include <vector>

#include "core/capture.h"

namespace gs {

// Flops per byte of A and B a GEMM moves from global memory when every element it reads serves a
// tile_m x tile_n tile of C: each k-step reads tile_m + tile_n elements and does 2 tile_m tile_n flops.
double tile_intensity(int tile_m, int tile_n, int elem_bytes);

// min(peak, bandwidth * intensity): TFLOP/s for TB/s times flop/byte.
double attainable(double intensity, double bandwidth_tbs, double peak_tflops);
// The intensity where a bandwidth's slope meets a compute ceiling.
double ridge(double bandwidth_tbs, double peak_tflops);

// One line of the roofline: a bandwidth (slope) or a compute ceiling (flat), from a capture's peaks.
struct Ceiling {
  std::string name;    // the peak's name: "dram", "l2", "ffma", "mma_sync_f16", "tensor_f16_f32" ...
  std::string label;   // "DRAM 4.26 TB/s (copy)", "cuBLAS f16.f32 744 TFLOP/s"
  std::string source;  // where the number came from, the peak's own words
  double value = 0;
  bool bandwidth = false;  // TB/s: a slope
};
// The ceilings a family's roofline draws, from what the capture measured: bandwidths (DRAM, L2), the pipe its rungs run
// on (FFMA, mma.sync f16 or tf32, wgmma f16 for the hopper ladder) and cuBLAS of its dtype. Missing peaks are left out.
// The peaks hold cuBLAS fp16 with fp32 accumulate only: for f16.f16 the cuBLAS line is the median of the cuBLAS numbers
// timed beside `runs` of that dtype at 4096^3 (none: no line, rather than f16.f32's number under f16.f16's name). Lines
// name their accumulate as the dtypes do ("mma.sync f16.f32", "cuBLAS f16.f32"): the throughput view's words.
std::vector<Ceiling> roofline_ceilings(const std::vector<Peak>& peaks, const std::string& family, const std::string& dtype,
                                       const std::vector<RunRecord>& runs = {});

// A log-log plot's mapping from (intensity, TFLOP/s) to pixels over [x0, x1] x [y0, y1] (data units).
struct LogAxes {
  double x0 = 0.1, x1 = 1000, y0 = 0.1, y1 = 1000;
  float left = 0, right = 1, top = 0, bottom = 1;  // pixels
  float px(double x) const;
  float py(double y) const;
};
// Decade-aligned bounds that hold every value in `v` (positive ones; others are ignored).
void log_bounds(const std::vector<double>& v, double* lo, double* hi);

}  // namespace gs
