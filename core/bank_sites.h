// A capture's shared-memory records of one kernel, read through the bank model: one entry per access
// site (the probe's name for one load, store, ldmatrix or cp.async in the source), with every traced
// execution of it and the wavefronts they cost. What the banks view lists and draws.
#pragma once

#include <string>
#include <vector>

#include "core/banks.h"
#include "core/capture.h"

namespace gs {

// The instruction the bank model schedules a record as: load lds, store sts, cp.async cp.async, of the
// record's width; ldmatrix .x1, .x2 or .x4, decided as bank_sites.cpp says.
SmemOp smem_op_of(const SmemAccess& a);

// One traced execution of a site by one warp.
struct SmemSiteAccess {
  SmemAccess access;  // a copy: a site list may outlive the capture it was read from (the window keeps one)
  int index = 0;  // its place among the site's executions by the same warp in the same k-iteration
  BankReport report;
};

struct SmemSite {
  std::string name;   // "Bs load (frag)"
  std::string kind;   // "load", "store", "ldmatrix", "cp.async"
  int width = 4;      // bytes per lane
  SmemOp op = SmemOp::Lds;
  std::vector<SmemSiteAccess> accesses;  // capture order: by k-iteration, warp, then program order
  int wavefronts = 0, ideal = 0, conflicts = 0;  // summed over the accesses
  int worst_way = 1;  // most distinct words one bank served in one phase of one access: 1 = conflict-free
};

// The instruction a reader knows the site by: "ldmatrix.x4.trans" (an ldmatrix's width from its records, .trans
// from the site's name, since a record does not carry it and the banks do not see it), else the record's kind.
std::string site_instruction(const SmemSite& s);

// The kernel's sites in the order the capture first meets them (warp 0's program order). Records of
// one site name with different kinds or widths are different instructions and get one entry each.
// Empty when the capture holds no record of the kernel.
std::vector<SmemSite> smem_sites(const Capture& c, const std::string& kernel);

// The most distinct words one bank serves within one phase of `r` (1 when conflict-free or empty),
// and the banks that serve that many, ascending.
int worst_way(const BankReport& r, std::vector<int>* banks = nullptr);

}  // namespace gs
