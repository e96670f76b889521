// The rung files' text, embedded at build time (app/embed_sources.cmake): the code view shows a rung's
// source, and what changed from the rung before, on a machine that has only the binary.
#pragma once

#include <string>
#include <vector>

namespace gs {

struct RungSource {
  const char* path;  // "kernels/mma_f16/08_ldmatrix.cuh"
  const char* text;
};

const std::vector<RungSource>& rung_sources();

// The file of a rung or variant ("mma_f16/08_ldmatrix", "hopper/04_persistent[order=none]"); null when none.
const RungSource* rung_source(const std::string& kernel);

}  // namespace gs
