// Where a wgmma operand tile's 16-byte chunks land in shared memory under each swizzle mode a matrix descriptor
// (and TMA's CUtensorMapSwizzle) can name: none, 32B, 64B, 128B. The arithmetic is the rungs' own
// (kernels/hopper/layout.h, plain C++ shared by kernels and CPU tests); this file lays one swizzle atom out as
// the banks see it, for the bank view of the hopper rungs.
//
// One atom is 8 rows of the mode's span (none: 16 bytes, the canonical layout's core-matrix row; 32B, 64B,
// 128B: that many bytes), K-major. Shared memory is drawn as 128-byte lines of 32 four-byte banks, 8 chunks
// of 16 bytes (4 banks) each. A wgmma reads a core matrix: 8 rows of one 16-byte column. Where those 8 chunks
// sit in 8 different chunk slots, the read touches every bank once (one wavefront); in one slot, 8 times.
#pragma once

#include <string>
#include <vector>

namespace gs {

struct SwizzleModeAtom {
  std::string name;       // "128B", "64B", "32B", "none", "128-byte rows, no swizzle"
  std::string tma;        // the CUtensorMapSwizzle that writes it, or "" for the unswizzled 128-byte rows
  int desc_field = -1;    // descriptor bits 62-63 (0 none, 1 128B, 2 64B, 3 32B); -1: no descriptor mode
  int row_bytes = 0;      // bytes of one tile row in the atom
  int chunks_per_row = 0; // 16-byte chunks per row
  int lines = 0;          // 128-byte lines the atom spans
  struct Cell {
    int row = 0, chunk = 0;  // logical: tile row (0-7) and 16-byte chunk within the row
    int line = 0, slot = 0;  // physical: 128-byte line and 16-byte slot within it (banks 4 slot .. 4 slot + 3)
  };
  std::vector<Cell> cells;  // every (row, chunk) of the atom, row-major
  // For each logical chunk column: the distinct slots its 8 rows occupy (8: conflict-free, 1: 8-way).
  std::vector<int> slots_per_column;
};

// The four descriptor modes, widest first (the rungs use 128B), then 128-byte rows with no swizzle: what a
// wgmma read of such rows would meet, the problem the swizzle solves.
std::vector<SwizzleModeAtom> swizzle_mode_atoms();

}  // namespace gs
