// The ratio-over-size picture (issue 14): for each family, its top rung's share of cuBLAS of the same dtype from
// the smallest to the largest M = N = K measured, one line per family and dtype per file (a GPU's bench JSON or
// capture), drawn by the throughput view.
#pragma once

#include <string>
#include <vector>

#include "core/capture.h"
#include "viz/views.h"

namespace gs {

struct RatioSource {
  std::string path;   // as given: the picture names the file by its base name
  MeasuredFile file;
};

// A family's top rung in one file: its rung (no variant) with the best verified ratio at 4096^3, per dtype (wmma's
// f16.f32 and f16.f16 are two lines, each against cuBLAS of its own accumulate type). The lines of one family and
// dtype share a colour; the first file's are solid, the others' dashed. Throws CaptureError naming a file that
// has no verified 4096^3 run to pick a top rung by.
PerfViewInput ratio_over_size(const std::vector<RatioSource>& files);

}  // namespace gs
