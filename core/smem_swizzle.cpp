#include "core/smem_swizzle.h"

#include <algorithm>
#include <set>

#include "kernels/hopper/layout.h"  // swizzle_offset and the Swizzle enum: plain C++, the rungs' own formulas

namespace gs {
namespace {

SwizzleModeAtom atom(hopper::Swizzle s, int row_bytes, std::string name, std::string tma, int desc_field) {
  SwizzleModeAtom a;
  a.name = std::move(name);
  a.tma = std::move(tma);
  a.desc_field = desc_field;
  a.row_bytes = row_bytes;
  a.chunks_per_row = row_bytes / 16;
  a.lines = std::max(1, 8 * row_bytes / 128);
  for (int r = 0; r < 8; ++r)
    for (int c = 0; c < a.chunks_per_row; ++c) {
      const uint32_t off = hopper::swizzle_offset(static_cast<uint32_t>(r * row_bytes + c * 16), s);
      a.cells.push_back({r, c, static_cast<int>(off / 128), static_cast<int>(off % 128 / 16)});
    }
  for (int c = 0; c < a.chunks_per_row; ++c) {
    std::set<int> slots;
    for (const SwizzleModeAtom::Cell& x : a.cells)
      if (x.chunk == c) slots.insert(x.slot);
    a.slots_per_column.push_back(static_cast<int>(slots.size()));
  }
  return a;
}

}  // namespace

std::vector<SwizzleModeAtom> swizzle_mode_atoms() {
  using hopper::Swizzle;
  return {
      atom(Swizzle::k128B, 128, "128B", "CU_TENSOR_MAP_SWIZZLE_128B", 1),
      atom(Swizzle::k64B, 64, "64B", "CU_TENSOR_MAP_SWIZZLE_64B", 2),
      atom(Swizzle::k32B, 32, "32B", "CU_TENSOR_MAP_SWIZZLE_32B", 3),
      atom(Swizzle::kNone, 16, "none", "CU_TENSOR_MAP_SWIZZLE_NONE", 0),
      atom(Swizzle::kNone, 128, "128-byte rows, no swizzle", "", -1),
  };
}

}  // namespace gs
