// Global-memory coalescing: what one warp-wide load or store costs in the units the hardware counts.
// The L1TEX unit splits a warp's global request into 32-byte sectors of 128-byte lines; Nsight Compute
// reports them as l1tex__t_sectors / l1tex__t_requests (pipe_lsu, mem_global, op_ld / op_st / op_ldgsts).
// A request asks for its active lanes' bytes; the sectors it touches are what moves, however few of
// their bytes a lane wanted. The ideal is the fewest sectors that could carry those bytes.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/capture.h"

namespace gs {

inline constexpr int kSectorBytes = 32;
inline constexpr int kLineBytes = 128;

struct GmemCost {
  int lanes = 0;          // active lanes
  int64_t bytes = 0;      // distinct bytes the lanes asked for
  int sectors = 0;        // distinct 32-byte sectors the request touched
  int lines = 0;          // distinct 128-byte lines
  int ideal_sectors = 0;  // ceil(bytes / 32): every sector full
};

// One request's cost. An access with no active lane costs nothing.
GmemCost gmem_cost(const GmemAccess& a);

// Sorted distinct sectors (offset / 32) and lines (offset / 128) the access touches.
std::vector<int64_t> gmem_sectors(const GmemAccess& a);
std::vector<int64_t> gmem_lines(const GmemAccess& a);

// Every traced execution of one site (the probe's name for one load or store in the source).
struct GmemSite {
  std::string name;      // "A load"
  std::string kind;      // "load", "store", "cp.async"
  int width = 4;         // bytes per lane
  char matrix = 'A';     // the matrix its first record touched
  std::vector<GmemAccess> accesses;  // capture order
  int64_t requests = 0, sectors = 0, ideal_sectors = 0;  // summed over the accesses
  // cp.async: sectors per request as Nsight Compute counts them, one per distinct (128-byte global line, 32-byte
  // unit of shared memory) pair of an instruction's bytes (README, "Sectors per request"), from the shared-memory
  // records of the same instructions (first k-iteration, in program order; every warp traced there, against warp 0's
  // global records); 0 where they do not pair.
  double ncu_per_request = 0;
  int ncu_requests = 0;  // the paired instructions it is over
  // Warp 0's own count (ncu_per_request is the mean over the warps of the shared-memory trace, each destination
  // record against warp 0's global lines: the global trace keeps fewer warps), and the other warps whose count
  // differs from it: wmma/08's B, warp 0's 16 and warp 7's 20, 18 over both, what Nsight Compute measured.
  double ncu_warp0 = 0;
  std::vector<std::pair<int, double>> ncu_other_warps;
  double sectors_per_request() const { return requests ? double(sectors) / requests : 0; }
  double ideal_per_request() const { return requests ? double(ideal_sectors) / requests : 0; }
};

// The kernel's sites in the order the capture first meets them; a site name with two kinds or widths
// is two entries. Empty when the capture has no global record of the kernel.
std::vector<GmemSite> gmem_sites(const Capture& c, const std::string& kernel);

// Sectors per request over every traced record of one kind ("load", "store" or "cp.async"), the number
// Nsight Compute's ratio of the same kind measures for the whole kernel when the traced block is typical.
// nullopt when there is no record of that kind.
std::optional<double> gmem_sectors_per_request(const Capture& c, const std::string& kernel, const std::string& kind);

// Element (row, column) of a byte offset into a row-major matrix with `ld` elements per row of
// `elem_bytes` each.
struct MatrixCell {
  int64_t row = 0, col = 0;
};
MatrixCell matrix_cell(int64_t offset, int64_t ld, int elem_bytes);

// The smallest rectangle of matrix elements that contains every lane's bytes, over all the accesses.
struct MatrixRegion {
  int64_t row0 = 0, col0 = 0, row1 = -1, col1 = -1;  // inclusive; empty when row1 < row0
  bool empty() const { return row1 < row0; }
};
MatrixRegion matrix_region(const std::vector<GmemAccess>& accesses, int64_t ld, int elem_bytes);

}  // namespace gs
