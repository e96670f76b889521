// Ground truth for what Nsight Compute counts as global sectors of one cp.async (LDGSTS) warp instruction
// (issue 12: padded shared tiles read 17-21 sectors per request where the source needs 16). One warp, one
// 16-byte cp.async.cg per launch; each lane's global source and shared destination come from a table of
// cases, so ncu's l1tex__t_{sectors,requests}_pipe_lsu_mem_global_op_ld of that launch belong to that one
// instruction. The cases vary two things the rungs differ in: which lanes read the two 16-byte halves of a
// 32-byte sector (neighbours l and l ^ 1, or lanes 8 or 16 apart), and how far apart the shared rows lie
// (16 B: contiguous; 80 B, 144 B, 272 B: the rungs' padded rows).
//
//   nvcc -O3 -arch=sm_90 -o ldgsts_probe bench/ldgsts_probe.cu
//   ldgsts_probe run FILE.tsv [MORE.tsv]   launches every case once, in table order, and writes the table
//                               (case, then per lane "source:destination" byte offsets) that ncu's results
//                               join; MORE.tsv adds cases in the same form (tools/ldgsts_cases.py writes the
//                               rungs' own instructions from a capture)
//   ldgsts_probe list FILE.tsv [MORE.tsv]   the table only
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

#define CHECK(x)                                                                              \
  do {                                                                                        \
    cudaError_t e_ = (x);                                                                     \
    if (e_ != cudaSuccess) {                                                                  \
      std::fprintf(stderr, "ldgsts_probe: %s: %s\n", #x, cudaGetErrorString(e_));             \
      std::exit(1);                                                                           \
    }                                                                                         \
  } while (0)

constexpr int kLanes = 32;
constexpr int kSmemBytes = 48 * 1024;
constexpr size_t kSrcBytes = 1 << 22;  // sources up to 4 MB apart (rows of a 4096-wide half matrix: 8 KB)

struct DevCase {
  uint32_t src[kLanes], dst[kLanes];  // byte offsets, 16-byte aligned
};

extern __shared__ __align__(128) unsigned char smem[];

__global__ void lp_cpasync_16(const DevCase* c, const unsigned char* src) {
  const int lane = threadIdx.x;
  const uint32_t d = static_cast<uint32_t>(__cvta_generic_to_shared(smem)) + c->dst[lane];
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(d), "l"(src + c->src[lane]) : "memory");
  asm volatile("cp.async.wait_all;" ::: "memory");
}

struct Case {
  std::string name;
  uint32_t src[kLanes], dst[kLanes];
};

// The sector a lane reads: `sector_of(l)`, its half `half_of(l)` (0: bytes 0-15, 1: 16-31); sectors of one
// row are 32 B apart, rows `row_bytes` apart, sector s of the case in row s / per_row.
// The shared destination: lane l writes 16 bytes at dst_of(l).
template <class Sector, class Half, class Dst>
Case make(const std::string& name, Sector sector_of, Half half_of, Dst dst_of, int per_row, uint32_t row_bytes) {
  Case c;
  c.name = name;
  for (int l = 0; l < kLanes; ++l) {
    const int s = sector_of(l);
    c.src[l] = uint32_t(s / per_row) * row_bytes + uint32_t(s % per_row) * 32 + uint32_t(half_of(l)) * 16;
    c.dst[l] = dst_of(l);
  }
  return c;
}

std::vector<Case> cases() {
  std::vector<Case> v;
  // Which lanes share a sector: "pair" l, l ^ 1 (the rungs' usual order), "apart8" l, l + 8 within each 16
  // lanes, "apart16" l, l + 16. Sectors laid out 4 per source row (64 B of a row, as a 16x64 half tile's),
  // 8192 B between rows (A of a 4096^3 problem), or 1 per row (a column of chunks).
  auto pair_sec = [](int l) { return l / 2; };
  auto pair_half = [](int l) { return l % 2; };
  auto a8_sec = [](int l) { return (l / 16) * 8 + l % 8; };
  auto a8_half = [](int l) { return (l / 8) % 2; };
  auto a16_sec = [](int l) { return l % 16; };
  auto a16_half = [](int l) { return l / 16; };
  // Destinations: the logical position of lane l's 16 bytes in its shared row, rows of `stride` bytes; a row
  // holds what the lanes of one source row read (the copy keeps rows).
  for (int per_row : {4, 2, 1}) {
    for (uint32_t stride : {0u, 80u, 144u, 272u}) {
      if (stride != 0 && stride < uint32_t(per_row) * 32) continue;  // rows would overlap
      const std::string rows = std::to_string(per_row) + (per_row == 1 ? " sector a row" : " sectors a row");
      const std::string st = stride == 0 ? "contiguous" : std::to_string(stride) + " B rows";
      // lane l's chunk index within its sector's row, and that row
      auto dst_for = [&](auto sector_of, auto half_of) {
        return [=](int l) {
          const int s = sector_of(l), row = s / per_row, chunk = (s % per_row) * 2 + half_of(l);
          const uint32_t rb = stride == 0 ? uint32_t(per_row) * 32 : stride;
          return uint32_t(row) * rb + uint32_t(chunk) * 16;
        };
      };
      v.push_back(make("pair, " + rows + ", " + st, pair_sec, pair_half, dst_for(pair_sec, pair_half), per_row, 8192));
      v.push_back(make("apart8, " + rows + ", " + st, a8_sec, a8_half, dst_for(a8_sec, a8_half), per_row, 8192));
      v.push_back(make("apart16, " + rows + ", " + st, a16_sec, a16_half, dst_for(a16_sec, a16_half), per_row, 8192));
    }
  }
  // Controls: every lane its own sector (no sharing), contiguous and 80 B apart; all lanes one 128-B line.
  v.push_back(make("own sector, contiguous", [](int l) { return l; }, [](int) { return 0; },
                   [](int l) { return uint32_t(l) * 16; }, 1, 8192));
  v.push_back(make("own sector, 80 B rows", [](int l) { return l; }, [](int) { return 0; },
                   [](int l) { return uint32_t(l) * 80; }, 1, 8192));
  v.push_back(make("pair, one source line, contiguous", pair_sec, pair_half, [](int l) { return uint32_t(l) * 16; }, 16,
                   8192));
  return v;
}

// Cases from a file in write_table's form (a header line, then a name and 32 "source:destination" fields).
void read_cases(const char* path, std::vector<Case>* v) {
  FILE* f = std::fopen(path, "r");
  if (!f) {
    std::fprintf(stderr, "ldgsts_probe: cannot read %s\n", path);
    std::exit(1);
  }
  char line[8192];
  bool header = true;
  while (std::fgets(line, sizeof line, f)) {
    if (header) {
      header = false;
      continue;
    }
    std::string text(line);
    while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
    std::vector<std::string> fields;
    size_t b = 0;
    for (size_t e; (e = text.find('\t', b)) != std::string::npos; b = e + 1) fields.push_back(text.substr(b, e - b));
    fields.push_back(text.substr(b));
    if (fields.size() != kLanes + 1) {
      std::fprintf(stderr, "ldgsts_probe: %s: a case needs a name and %d fields, got %zu\n", path, kLanes, fields.size());
      std::exit(1);
    }
    Case c;
    c.name = fields[0];
    for (int l = 0; l < kLanes; ++l)
      if (std::sscanf(fields[size_t(l) + 1].c_str(), "%u:%u", &c.src[l], &c.dst[l]) != 2) {
        std::fprintf(stderr, "ldgsts_probe: %s: case '%s' lane %d is not SOURCE:DEST\n", path, c.name.c_str(), l);
        std::exit(1);
      }
    v->push_back(c);
  }
  std::fclose(f);
}

void write_table(const std::vector<Case>& v, const char* path) {
  FILE* f = std::fopen(path, "w");
  if (!f) {
    std::fprintf(stderr, "ldgsts_probe: cannot write %s\n", path);
    std::exit(1);
  }
  std::fprintf(f, "case");
  for (int l = 0; l < kLanes; ++l) std::fprintf(f, "\tlane%d", l);
  std::fprintf(f, "\n");
  for (const Case& c : v) {
    std::fprintf(f, "%s", c.name.c_str());
    for (int l = 0; l < kLanes; ++l) std::fprintf(f, "\t%u:%u", c.src[l], c.dst[l]);
    std::fprintf(f, "\n");
  }
  std::fclose(f);
}

}  // namespace

int main(int argc, char** argv) {
  const std::string cmd = argc > 1 ? argv[1] : "";
  if ((cmd != "run" && cmd != "list") || argc < 3 || argc > 4) {
    std::fprintf(stderr, "usage: ldgsts_probe run|list FILE.tsv [MORE.tsv]\n");
    return 2;
  }
  std::vector<Case> v = cases();
  if (argc == 4) read_cases(argv[3], &v);
  write_table(v, argv[2]);
  if (cmd == "list") return 0;
  unsigned char* src = nullptr;
  DevCase* dev = nullptr;
  CHECK(cudaMalloc(&src, kSrcBytes));
  CHECK(cudaMemset(src, 0, kSrcBytes));
  CHECK(cudaMalloc(&dev, sizeof(DevCase)));
  CHECK(cudaFuncSetAttribute(lp_cpasync_16, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmemBytes));
  for (const Case& c : v) {
    DevCase h;
    for (int l = 0; l < kLanes; ++l) {
      if (c.src[l] + 16 > kSrcBytes || c.dst[l] + 16 > uint32_t(kSmemBytes)) {
        std::fprintf(stderr, "ldgsts_probe: case '%s' lane %d out of range\n", c.name.c_str(), l);
        return 1;
      }
      h.src[l] = c.src[l], h.dst[l] = c.dst[l];
    }
    CHECK(cudaMemcpy(dev, &h, sizeof h, cudaMemcpyHostToDevice));
    lp_cpasync_16<<<1, kLanes, kSmemBytes>>>(dev, src);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
  }
  std::printf("ldgsts_probe: %zu cases launched\n", v.size());
  return 0;
}
