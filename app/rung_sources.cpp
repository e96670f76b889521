#include "app/rung_sources.h"

namespace gs {

const RungSource* rung_source(const std::string& kernel) {
  const std::string base = kernel.substr(0, kernel.find('['));  // a variant is its rung's file
  const std::string path = "kernels/" + base + ".cuh";
  for (const RungSource& s : rung_sources())
    if (path == s.path) return &s;
  return nullptr;
}

}  // namespace gs
