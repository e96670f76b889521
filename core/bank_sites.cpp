#include "core/bank_sites.h"

#include <algorithm>
#include <array>
#include <map>
#include <set>
#include <tuple>

namespace gs {

namespace {

// The set of active lanes' addresses in [first, last).
std::set<uint32_t> addresses(const SmemAccess& a, int first, int last) {
  std::set<uint32_t> s;
  for (int lane = first; lane < last; ++lane)
    if (a.addr[lane]) s.insert(*a.addr[lane]);
  return s;
}

bool subset(const std::set<uint32_t>& a, const std::set<uint32_t>& b) {
  return std::includes(b.begin(), b.end(), a.begin(), a.end());
}

}  // namespace

SmemOp smem_op_of(const SmemAccess& a) {
  if (a.kind == "store") return SmemOp::Sts;
  if (a.kind == "cp.async") return SmemOp::CpAsync;
  if (a.kind != "ldmatrix") return SmemOp::Lds;
  // A record holds every active lane's address but not the .num qualifier, and an .x1 or .x2 is issued
  // by all 32 lanes (the upper lanes' addresses are ignored), so the count is decided in this order:
  // 1. The site's name, where it says (mma_f16's "As ldmatrix.x4", "Bs ldmatrix.x4.trans").
  for (const auto& [suffix, op] : {std::pair{".x1", SmemOp::LdmatrixX1}, std::pair{".x2", SmemOp::LdmatrixX2},
                                   std::pair{".x4", SmemOp::LdmatrixX4}})
    if (a.site.find(suffix) != std::string::npos) return op;
  // 2. The distinct row addresses: lanes past the last matrix's suppliers either take no part or, as
  //    the usual `lane % 8` / `lane % 16` row arithmetic makes them, repeat earlier lanes' rows. Lanes
  //    8-31 adding no row to lanes 0-7's: .x1; lanes 16-31 adding none to lanes 0-15's: .x2; else .x4.
  //    An .x4 that loads one matrix twice would read as fewer matrices; no rung does that, and each
  //    ldmatrix in kernels/ today is an .x4 with 32 distinct rows (wmma's fragment loads included).
  const std::set<uint32_t> first8 = addresses(a, 0, 8), first16 = addresses(a, 0, 16);
  if (subset(addresses(a, 8, 32), first8)) return SmemOp::LdmatrixX1;
  if (subset(addresses(a, 16, 32), first16)) return SmemOp::LdmatrixX2;
  return SmemOp::LdmatrixX4;
}

int worst_way(const BankReport& r, std::vector<int>* banks) {
  // Wavefronts of one phase are consecutive and read distinct words of a bank, so the number of them
  // in which a bank is busy is the number of distinct words it serves in that phase.
  std::map<int, std::array<int, kSmemBanks>> busy;  // phase -> bank -> wavefronts
  for (size_t w = 0; w < r.wavefront_banks.size(); ++w) {
    std::array<int, kSmemBanks>& b = busy.try_emplace(r.wavefront_phase[w], std::array<int, kSmemBanks>{}).first->second;
    for (int bank = 0; bank < kSmemBanks; ++bank) b[bank] += !r.wavefront_banks[w][bank].lanes.empty();
  }
  int worst = 1;
  for (const auto& [phase, b] : busy) worst = std::max(worst, *std::max_element(b.begin(), b.end()));
  if (banks) {
    std::set<int> at;
    for (const auto& [phase, b] : busy)
      for (int bank = 0; bank < kSmemBanks; ++bank)
        if (b[bank] == worst) at.insert(bank);
    banks->assign(at.begin(), at.end());
  }
  return worst;
}

std::string site_instruction(const SmemSite& s) {
  if (!is_ldmatrix(s.op)) return s.kind;
  std::string name = smem_op_name(s.op);
  if (s.name.find(name + ".trans") != std::string::npos) name += ".trans";
  return name;
}

std::vector<SmemSite> smem_sites(const Capture& c, const std::string& kernel) {
  std::vector<SmemSite> sites;
  // Executions so far of each (site, warp, iteration): the index of the next one.
  std::map<std::tuple<size_t, int, int>, int> seen;
  for (const SmemAccess& a : c.smem) {
    if (a.kernel != kernel) continue;
    auto it = std::find_if(sites.begin(), sites.end(), [&](const SmemSite& s) {
      return s.name == a.site && s.kind == a.kind && s.width == a.width;
    });
    if (it == sites.end()) {
      SmemSite s;
      s.name = a.site, s.kind = a.kind, s.width = a.width;
      s.op = smem_op_of(a);
      it = sites.insert(sites.end(), std::move(s));
    }
    // One site is one instruction: an ldmatrix is the widest any of its executions looks (a rare
    // execution whose upper lanes happen to repeat rows must not make it a narrower instruction);
    // SmemOp's enumerators are declared in that order (Lds < .x1 < .x2 < .x4).
    it->op = std::max(it->op, smem_op_of(a));
    SmemSiteAccess x;
    x.access = a;
    x.index = seen[{size_t(it - sites.begin()), a.warp, a.iteration}]++;
    it->accesses.push_back(std::move(x));
  }
  for (SmemSite& s : sites) {
    for (SmemSiteAccess& x : s.accesses) {
      // A width the model has no phases for (a malformed capture) would throw: it counts as nothing.
      if (smem_width_ok(s.width, s.op))
        x.report = bank_report(x.access.addr, s.width, s.op);
      s.wavefronts += x.report.wavefronts;
      s.ideal += x.report.ideal;
      s.conflicts += x.report.conflicts;
      s.worst_way = std::max(s.worst_way, worst_way(x.report));
    }
  }
  return sites;
}

}  // namespace gs
