#include "core/swizzle.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <stdexcept>

namespace gs {

namespace {

// Digits only, at most 9 of them (no sign, no overflow); false otherwise.
bool parse_count(std::string_view s, long* value) {
  if (s.empty() || s.size() > 9) return false;
  long v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + (c - '0');
  }
  *value = v;
  return true;
}

void check_tiles(int tiles_m, int tiles_n) {
  if (tiles_m < 1 || tiles_n < 1 || tiles_m > kMaxTilesPerSide || tiles_n > kMaxTilesPerSide ||
      static_cast<long>(tiles_m) * tiles_n > kMaxTiles)
    throw std::invalid_argument("launch_order: " + std::to_string(tiles_m) + "x" + std::to_string(tiles_n) +
                                " tiles is outside 1..65535 per side and 2^20 in all");
}

}  // namespace

bool parse_swizzle_scheme(std::string_view s, SwizzleScheme* out, std::string* error) {
  if (s == "none") {
    *out = SwizzleScheme{};
    return true;
  }
  const auto param_after = [&s](std::string_view prefix, long* v) {
    return s.substr(0, prefix.size()) == prefix && parse_count(s.substr(prefix.size()), v);
  };
  long v = 0;
  if (s.substr(0, 8) == "cutlass:") {
    if (!param_after("cutlass:", &v) || v > kMaxCutlassLog) {
      *error = "scheme '" + std::string(s) + "': cutlass:L needs L (log2 of the swizzle tile) from 0 to " +
               std::to_string(kMaxCutlassLog);
      return false;
    }
    *out = SwizzleScheme{SwizzleScheme::Kind::Cutlass, static_cast<int>(v)};
    return true;
  }
  if (s.substr(0, 7) == "triton:") {
    if (!param_after("triton:", &v) || v < 1 || v > kMaxTritonGroup) {
      *error = "scheme '" + std::string(s) + "': triton:G needs G (GROUP_SIZE_M) from 1 to " +
               std::to_string(kMaxTritonGroup);
      return false;
    }
    *out = SwizzleScheme{SwizzleScheme::Kind::Triton, static_cast<int>(v)};
    return true;
  }
  *error = "unknown swizzle scheme '" + std::string(s) + "' (expected none, cutlass:L or triton:G)";
  return false;
}

std::string swizzle_scheme_name(const SwizzleScheme& s) {
  switch (s.kind) {
    case SwizzleScheme::Kind::None: return "none";
    case SwizzleScheme::Kind::Cutlass: return "cutlass:" + std::to_string(s.param);
    case SwizzleScheme::Kind::Triton: return "triton:" + std::to_string(s.param);
  }
  return "?";
}

bool parse_tiles(std::string_view s, int* tiles_m, int* tiles_n, std::string* error) {
  const size_t x = s.find('x');
  long m = 0, n = 0;
  if (x == std::string_view::npos || !parse_count(s.substr(0, x), &m) || !parse_count(s.substr(x + 1), &n)) {
    *error = "tiles '" + std::string(s) + "' must be MxN, two whole numbers, e.g. 8x16";
    return false;
  }
  if (m < 1 || n < 1 || m > kMaxTilesPerSide || n > kMaxTilesPerSide) {
    *error = "tiles '" + std::string(s) + "': M and N must be from 1 to " + std::to_string(kMaxTilesPerSide);
    return false;
  }
  if (m * n > kMaxTiles) {
    *error = "tiles '" + std::string(s) + "': " + std::to_string(m * n) + " tiles is more than " +
             std::to_string(kMaxTiles);
    return false;
  }
  *tiles_m = static_cast<int>(m);
  *tiles_n = static_cast<int>(n);
  return true;
}

std::vector<LaunchedTile> launch_order(int tiles_m, int tiles_n, const SwizzleScheme& scheme) {
  check_tiles(tiles_m, tiles_n);
  const int M = tiles_m, N = tiles_n;
  std::vector<LaunchedTile> order;
  order.reserve(static_cast<size_t>(M) * N);

  switch (scheme.kind) {
    case SwizzleScheme::Kind::None:
      // grid (N, M): blockIdx.x walks a row of C, so launch order is row-major over tiles.
      for (int launch = 0; launch < M * N; ++launch) order.push_back({launch, launch / N, launch % N});
      break;

    case SwizzleScheme::Kind::Cutlass: {
      const int L = scheme.param;
      if (L < 0 || L > kMaxCutlassLog) throw std::invalid_argument("launch_order: cutlass:L needs 0 <= L <= 8");
      const int tile = 1 << L;
      const int grid_x = M << L;                // every row of C, 2^L times: one per column of its band
      const int grid_y = (N + tile - 1) / tile;  // bands of 2^L columns; the last may overhang N
      for (int by = 0; by < grid_y; ++by) {
        for (int bx = 0; bx < grid_x; ++bx) {
          const int tile_n = (by << L) + (bx & (tile - 1));
          // An overhanging block still launches (and takes a launch number) but returns at once.
          if (tile_n < N) order.push_back({bx + by * grid_x, bx >> L, tile_n});
        }
      }
      break;
    }

    case SwizzleScheme::Kind::Triton: {
      const int G = scheme.param;
      if (G < 1 || G > kMaxTritonGroup) throw std::invalid_argument("launch_order: triton:G needs G >= 1");
      // Triton tutorial 03 "Matrix Multiplication", section "L2 Cache Optimizations" (current form):
      // programs come in groups of G rows of C times all N columns, column-major inside a group. The
      // last group is shorter when G does not divide M. The row inside the group is taken from the
      // program's index within its group; the tutorial's first versions took pid % group_size_m instead,
      // which differs only in a short last group (both visit every tile once).
      const int64_t in_group = static_cast<int64_t>(G) * N;  // programs per group; 64-bit: G may be 65535
      for (int pid = 0; pid < M * N; ++pid) {
        const int64_t group_id = pid / in_group;
        const int64_t first_m = group_id * G;
        const int64_t group_m = std::min<int64_t>(M - first_m, G);
        const int64_t r = pid % in_group;
        order.push_back({pid, static_cast<int>(first_m + r % group_m), static_cast<int>(r / group_m)});
      }
      break;
    }
  }
  return order;
}

std::string swizzle_csv(const std::vector<LaunchedTile>& order) {
  std::string out = "launch,tile_m,tile_n\n";
  out.reserve(out.size() + order.size() * 12);
  for (const LaunchedTile& t : order)
    out += std::to_string(t.launch) + ',' + std::to_string(t.tile_m) + ',' + std::to_string(t.tile_n) + '\n';
  return out;
}

Footprint window_footprint(const std::vector<LaunchedTile>& order, int first, int count) {
  const size_t begin = static_cast<size_t>(std::clamp<long>(first, 0, static_cast<long>(order.size())));
  const size_t end = std::min(order.size(), begin + static_cast<size_t>(std::max(count, 0)));
  std::vector<int> rows, cols;
  for (size_t i = begin; i < end; ++i) {
    rows.push_back(order[i].tile_m);
    cols.push_back(order[i].tile_n);
  }
  const auto distinct = [](std::vector<int>& v) {
    std::sort(v.begin(), v.end());
    return static_cast<int>(std::unique(v.begin(), v.end()) - v.begin());
  };
  return Footprint{distinct(rows), distinct(cols)};
}

TracedLaunch traced_launch(const Capture& c, const std::string& kernel) {
  TracedLaunch l;
  for (const BlockRecord& b : c.blocks)  // a record on no tile (a negative index) has nothing to draw
    if (b.kernel == kernel && b.tile_m >= 0 && b.tile_n >= 0) l.blocks.push_back(b);
  if (l.blocks.empty()) return l;
  std::sort(l.blocks.begin(), l.blocks.end(), [](const BlockRecord& a, const BlockRecord& b) { return a.launch < b.launch; });
  l.t0 = l.blocks.front().start_ns;
  uint64_t end = 0;
  for (BlockRecord& b : l.blocks) {
    b.end_ns = std::max(b.end_ns, b.start_ns);
    l.t0 = std::min(l.t0, b.start_ns);
    end = std::max(end, b.end_ns);
    l.tiles_m = std::max(l.tiles_m, b.tile_m + 1);
    l.tiles_n = std::max(l.tiles_n, b.tile_n + 1);
    l.sms = std::max(l.sms, b.smid + 1);
  }
  l.duration = end - l.t0;
  std::vector<std::pair<int, int>> ctas;
  for (const BlockRecord& b : l.blocks) ctas.push_back({b.bx, b.by});
  std::sort(ctas.begin(), ctas.end());
  l.ctas = static_cast<int>(std::unique(ctas.begin(), ctas.end()) - ctas.begin());
  std::map<std::pair<int, int>, std::vector<size_t>> by_tile;  // the records of each tile, in launch order
  for (size_t i = 0; i < l.blocks.size(); ++i) by_tile[{l.blocks[i].tile_m, l.blocks[i].tile_n}].push_back(i);
  l.tiles = static_cast<int>(by_tile.size());
  l.pieces.assign(l.blocks.size(), {0, 1});
  for (const auto& [tile, records] : by_tile) {
    for (size_t j = 0; j < records.size(); ++j) l.pieces[records[j]] = {int(j), int(records.size())};
    l.split_tiles += records.size() > 1;
  }
  std::map<std::pair<int, int>, std::pair<bool, bool>> kinds;  // per CTA: computed a whole tile, a piece
  for (size_t i = 0; i < l.blocks.size(); ++i) {
    auto& k = kinds[{l.blocks[i].bx, l.blocks[i].by}];
    (l.pieces[i].second > 1 ? k.second : k.first) = true;
  }
  for (const auto& [cta, k] : kinds) {
    l.whole_ctas += k.first && !k.second;
    l.piece_ctas += k.second && !k.first;
  }
  if (l.two_launches()) {
    uint64_t whole_end = 0, piece_start = UINT64_MAX;
    for (size_t i = 0; i < l.blocks.size(); ++i) {
      if (l.pieces[i].second > 1) piece_start = std::min(piece_start, l.blocks[i].start_ns);
      else whole_end = std::max(whole_end, l.blocks[i].end_ns);
    }
    if (piece_start > whole_end) l.launch_gap = piece_start - whole_end;
  }
  // Lanes: each SM's CTAs (a CTA's span from its first record's start to its last's end) in start order, each to
  // the first lane whose last CTA had ended.
  std::map<std::pair<int, std::pair<int, int>>, std::pair<uint64_t, uint64_t>> span;  // (sm, cta) -> start, end
  for (const BlockRecord& b : l.blocks) {
    auto [it, fresh] = span.try_emplace({b.smid, {b.bx, b.by}}, b.start_ns, b.end_ns);
    if (!fresh) it->second = {std::min(it->second.first, b.start_ns), std::max(it->second.second, b.end_ns)};
  }
  std::map<int, std::vector<std::pair<std::pair<uint64_t, uint64_t>, std::pair<int, int>>>> by_sm;
  for (const auto& [key, se] : span) by_sm[key.first].push_back({se, key.second});
  std::map<std::pair<int, std::pair<int, int>>, int> cta_lane;
  for (auto& [sm, ctas_here] : by_sm) {
    std::sort(ctas_here.begin(), ctas_here.end());
    std::vector<uint64_t> lane_end;  // when each lane's last CTA ended
    for (const auto& [se, cta] : ctas_here) {
      size_t k = 0;
      while (k < lane_end.size() && lane_end[k] > se.first) ++k;
      if (k == lane_end.size()) lane_end.push_back(0);
      lane_end[k] = se.second;
      cta_lane[{sm, cta}] = int(k);
    }
    l.lanes = std::max(l.lanes, int(lane_end.size()));
  }
  l.lane.resize(l.blocks.size());
  for (size_t i = 0; i < l.blocks.size(); ++i) l.lane[i] = cta_lane[{l.blocks[i].smid, {l.blocks[i].bx, l.blocks[i].by}}];
  return l;
}

WaveFootprint running_footprint(const TracedLaunch& l, uint64_t t, int block_m, int block_n, int k, int elem_bytes) {
  WaveFootprint f;
  std::vector<int> rows, cols;
  for (const BlockRecord& b : l.blocks) {
    if (b.start_ns - l.t0 > t || b.end_ns - l.t0 <= t) continue;
    ++f.running;
    rows.push_back(b.tile_m);
    cols.push_back(b.tile_n);
  }
  const auto distinct = [](std::vector<int>& v) {
    std::sort(v.begin(), v.end());
    return static_cast<int>(std::unique(v.begin(), v.end()) - v.begin());
  };
  f.a_panels = distinct(rows);
  f.b_panels = distinct(cols);
  f.a_bytes = int64_t(f.a_panels) * block_m * k * elem_bytes;
  f.b_bytes = int64_t(f.b_panels) * block_n * k * elem_bytes;
  return f;
}

std::string identify_order(const TracedLaunch& l) {
  if (l.empty()) return "";
  std::vector<SwizzleScheme> candidates = {{SwizzleScheme::Kind::None, 0}};
  // cutlass:0 is column-major: before triton:G, whose group as tall as C is column-major too.
  for (int log = 0; log <= kMaxCutlassLog; ++log) candidates.push_back({SwizzleScheme::Kind::Cutlass, log});
  for (int g = 1; g <= 64; g *= 2) candidates.push_back({SwizzleScheme::Kind::Triton, g});
  // The order of the tiles, not the launch numbers: a band wider than C leaves gaps in the numbering (blocks
  // with no tile) but walks the tiles row by row, which is row-major however it is numbered.
  for (const SwizzleScheme& s : candidates) {
    std::vector<LaunchedTile> order;
    try {
      order = launch_order(l.tiles_m, l.tiles_n, s);
    } catch (const std::invalid_argument&) {
      continue;
    }
    bool fits = order.size() == l.blocks.size();
    for (size_t i = 0; fits && i < order.size(); ++i)
      fits = order[i].tile_m == l.blocks[i].tile_m && order[i].tile_n == l.blocks[i].tile_n;
    if (fits) return swizzle_scheme_name(s);
  }
  return "";
}

}  // namespace gs
