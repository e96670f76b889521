#include "core/gmem.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <utility>

namespace gs {

namespace {

// Each active lane's bytes as [begin, end), sorted and merged.
std::vector<std::pair<int64_t, int64_t>> lane_intervals(const GmemAccess& a) {
  std::vector<std::pair<int64_t, int64_t>> v;
  for (const auto& o : a.offset)
    if (o) v.emplace_back(*o, *o + std::max(1, a.width));
  std::sort(v.begin(), v.end());
  std::vector<std::pair<int64_t, int64_t>> merged;
  for (const auto& iv : v) {
    if (!merged.empty() && iv.first <= merged.back().second)
      merged.back().second = std::max(merged.back().second, iv.second);
    else
      merged.push_back(iv);
  }
  return merged;
}

// Floor division: offsets below a matrix's start (never traced, but a damaged capture may hold them)
// still map to distinct sectors.
int64_t floor_div(int64_t x, int64_t d) { return x >= 0 ? x / d : -((-x + d - 1) / d); }

std::vector<int64_t> units(const GmemAccess& a, int64_t unit) {
  std::vector<int64_t> out;
  for (const auto& [b, e] : lane_intervals(a))
    for (int64_t u = floor_div(b, unit); u <= floor_div(e - 1, unit); ++u) out.push_back(u);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace

std::vector<int64_t> gmem_sectors(const GmemAccess& a) { return units(a, kSectorBytes); }
std::vector<int64_t> gmem_lines(const GmemAccess& a) { return units(a, kLineBytes); }

GmemCost gmem_cost(const GmemAccess& a) {
  GmemCost c;
  for (const auto& o : a.offset) c.lanes += o.has_value();
  for (const auto& [b, e] : lane_intervals(a)) c.bytes += e - b;
  c.sectors = static_cast<int>(gmem_sectors(a).size());
  c.lines = static_cast<int>(gmem_lines(a).size());
  c.ideal_sectors = static_cast<int>((c.bytes + kSectorBytes - 1) / kSectorBytes);
  return c;
}

std::vector<GmemSite> gmem_sites(const Capture& c, const std::string& kernel) {
  std::vector<GmemSite> sites;
  for (const GmemAccess& a : c.gmem) {
    if (a.kernel != kernel) continue;
    auto it = std::find_if(sites.begin(), sites.end(), [&](const GmemSite& s) {
      return s.name == a.site && s.kind == a.kind && s.width == a.width;
    });
    if (it == sites.end()) {
      GmemSite s;
      s.name = a.site;
      s.kind = a.kind;
      s.width = a.width;
      s.matrix = a.matrix;
      sites.push_back(std::move(s));
      it = sites.end() - 1;
    }
    const GmemCost cost = gmem_cost(a);
    if (cost.lanes == 0) continue;
    it->accesses.push_back(a);
    it->requests += 1;
    it->sectors += cost.sectors;
    it->ideal_sectors += cost.ideal_sectors;
  }
  // Nsight Compute's count of each cp.async site: its global records beside the shared ones of the same
  // instructions ("As ..." with A, "Bs ..." with B), fitted to 54 single-instruction probes (bench/ldgsts_probe.cu)
  // and equal to every padded rung's measured ratio (tools/ldgsts_model.py).
  for (GmemSite& site : sites) {
    if (site.kind != "cp.async" || site.name.empty()) continue;
    std::vector<const GmemAccess*> g;
    for (const GmemAccess& a : site.accesses)
      if (a.warp == 0 && a.iteration == 0) g.push_back(&a);
    // Each warp's shared-memory records of the same copies, in program order (the global trace keeps fewer warps:
    // wmma/08's 0 and 1 there, 0 and 7 here).
    std::map<int, std::vector<const SmemAccess*>> by_warp;
    for (const SmemAccess& a : c.smem)
      if (a.kernel == kernel && a.kind == "cp.async" && a.iteration == 0 && !a.site.empty() && a.site[0] == site.name[0])
        by_warp[a.warp].push_back(&a);
    const std::vector<const SmemAccess*>& sh = by_warp[0];
    if (g.empty() || g.size() != sh.size()) continue;
    // Pairs per request of one warp's shared-memory records against warp 0's global ones, request by request.
    const auto per_request = [&](const std::vector<const SmemAccess*>& dst) {
      int64_t pairs = 0;
      for (size_t i = 0; i < g.size(); ++i) {
        std::set<std::pair<int64_t, int64_t>> seen;
        for (size_t l = 0; l < 32; ++l)
          if (g[i]->offset[l] && dst[i]->addr[l])
            for (int b = 0; b < g[i]->width; b += 4)
              seen.insert({(*g[i]->offset[l] + b) / 128, (int64_t(*dst[i]->addr[l]) + b) / 32});
        pairs += int64_t(seen.size());
      }
      return double(pairs) / double(g.size());
    };
    site.ncu_warp0 = per_request(sh);
    site.ncu_requests = int(g.size());
    // The other warps: each warp's destinations against warp 0's global lines, which every warp's lanes meet alike
    // (the copies' lane-to-chunk maps are the thread index's, row by row). wmma/08's warp 7 lands its B rows 16 bytes
    // into a unit where warp 0 starts on one: 20 a request against 16, and the two average Nsight Compute's 18.
    double sum = site.ncu_warp0;
    int warps = 1;
    for (const auto& [warp, dst] : by_warp) {
      if (warp == 0 || dst.size() != g.size()) continue;
      const double n = per_request(dst);
      sum += n, ++warps;
      if (std::fabs(n - site.ncu_warp0) > 0.005) site.ncu_other_warps.push_back({warp, n});
    }
    site.ncu_per_request = sum / warps;
  }
  return sites;
}

std::optional<double> gmem_sectors_per_request(const Capture& c, const std::string& kernel, const std::string& kind) {
  int64_t requests = 0, sectors = 0;
  for (const GmemSite& s : gmem_sites(c, kernel)) {
    if (s.kind != kind) continue;
    requests += s.requests;
    sectors += s.sectors;
  }
  if (requests == 0) return std::nullopt;
  return double(sectors) / requests;
}

MatrixCell matrix_cell(int64_t offset, int64_t ld, int elem_bytes) {
  const int64_t e = floor_div(offset, std::max(1, elem_bytes));
  const int64_t l = std::max<int64_t>(1, ld);
  return {floor_div(e, l), e - floor_div(e, l) * l};
}

MatrixRegion matrix_region(const std::vector<GmemAccess>& accesses, int64_t ld, int elem_bytes) {
  MatrixRegion r;
  bool any = false;
  for (const GmemAccess& a : accesses) {
    const int elems = std::max(1, a.width / std::max(1, elem_bytes));
    for (const auto& o : a.offset) {
      if (!o) continue;
      const MatrixCell first = matrix_cell(*o, ld, elem_bytes);
      const MatrixCell last = matrix_cell(*o + int64_t(elems - 1) * elem_bytes, ld, elem_bytes);
      if (!any) {
        r = {first.row, first.col, first.row, first.col};
        any = true;
      }
      r.row0 = std::min({r.row0, first.row, last.row});
      r.row1 = std::max({r.row1, first.row, last.row});
      r.col0 = std::min({r.col0, first.col, last.col});
      r.col1 = std::max({r.col1, first.col, last.col});
    }
  }
  return r;
}

}  // namespace gs
