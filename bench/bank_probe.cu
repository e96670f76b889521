// Ground truth for the bank model (core/banks.cpp): one warp, one shared-memory instruction per launch,
// each lane's byte offset taken from a table of cases, so that Nsight Compute's per-kernel counters are
// the counters of that single instruction. tools/bank_ncu.sh runs it under ncu and writes
// tests/data/bank_probe.tsv.
//
//   nvcc -O3 -arch=sm_90 -o bank_probe bench/bank_probe.cu
//   bank_probe cases FILE.tsv [OP] launches every case (whose op, or name, starts with OP: lds, lds2_) once, in table order, and
//                                 writes the table (case, op, width, 32 offsets) that ncu's results join
//   bank_probe price [WIDTHS]     clock64 cost of warp-wide loads at 1..32-way conflicts (issue item 5)
//   bank_probe list               the cases, without launching anything
//
// Each kernel holds exactly one shared-memory instruction (LDS, STS, LDSM or LDGSTS: the script checks
// this in cuobjdump's SASS before it trusts the counters); the offsets and the active-lane mask come in
// through global memory, so the compiler cannot fold the addresses. Inactive lanes skip the instruction
// under a predicate. ldmatrix is .sync.aligned, so all 32 lanes execute it; lanes past the matrices'
// row providers hold whatever the case says and the hardware ignores them (cases check that).
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

namespace {

#define CHECK(x)                                                                              \
  do {                                                                                        \
    cudaError_t e_ = (x);                                                                     \
    if (e_ != cudaSuccess) {                                                                  \
      std::fprintf(stderr, "bank_probe: %s: %s\n", #x, cudaGetErrorString(e_));               \
      std::exit(1);                                                                           \
    }                                                                                         \
  } while (0)

constexpr int kLanes = 32;
constexpr int kSmemBytes = 48 * 1024;  // dynamic shared memory of every launch; offsets stay below it
constexpr int kInactive = -1;

struct DevCase {
  uint32_t off[kLanes];
  uint32_t active;  // bit per lane
};

extern __shared__ __align__(128) unsigned char smem[];

__device__ __forceinline__ uint32_t lane_addr(const DevCase* c, bool* act) {
  const int lane = threadIdx.x;
  *act = (c->active >> lane) & 1u;
  return static_cast<uint32_t>(__cvta_generic_to_shared(smem)) + c->off[lane];
}

// ---- loads ----
__global__ void bp_lds_2(const DevCase* c, uint32_t* sink) {
  bool act;
  const uint32_t a = lane_addr(c, &act);
  if (act) {
    uint16_t v;
    asm volatile("ld.shared.u16 %0, [%1];" : "=h"(v) : "r"(a));
    sink[threadIdx.x] = v;
  }
}
__global__ void bp_lds_4(const DevCase* c, uint32_t* sink) {
  bool act;
  const uint32_t a = lane_addr(c, &act);
  if (act) {
    uint32_t v;
    asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v) : "r"(a));
    sink[threadIdx.x] = v;
  }
}
__global__ void bp_lds_8(const DevCase* c, uint32_t* sink) {
  bool act;
  const uint32_t a = lane_addr(c, &act);
  if (act) {
    uint32_t v0, v1;
    asm volatile("ld.shared.v2.u32 {%0, %1}, [%2];" : "=r"(v0), "=r"(v1) : "r"(a));
    sink[threadIdx.x] = v0 ^ v1;
  }
}
__global__ void bp_lds_16(const DevCase* c, uint32_t* sink) {
  bool act;
  const uint32_t a = lane_addr(c, &act);
  if (act) {
    uint32_t v0, v1, v2, v3;
    asm volatile("ld.shared.v4.u32 {%0, %1, %2, %3}, [%4];" : "=r"(v0), "=r"(v1), "=r"(v2), "=r"(v3) : "r"(a));
    sink[threadIdx.x] = v0 ^ v1 ^ v2 ^ v3;
  }
}

// ---- stores ----
__global__ void bp_sts_2(const DevCase* c, uint32_t*) {
  bool act;
  const uint32_t a = lane_addr(c, &act);
  const uint16_t v = static_cast<uint16_t>(threadIdx.x);
  if (act) asm volatile("st.shared.u16 [%0], %1;" ::"r"(a), "h"(v) : "memory");
}
__global__ void bp_sts_4(const DevCase* c, uint32_t*) {
  bool act;
  const uint32_t a = lane_addr(c, &act);
  const uint32_t v = threadIdx.x;
  if (act) asm volatile("st.shared.u32 [%0], %1;" ::"r"(a), "r"(v) : "memory");
}
__global__ void bp_sts_8(const DevCase* c, uint32_t*) {
  bool act;
  const uint32_t a = lane_addr(c, &act);
  const uint32_t v = threadIdx.x;
  if (act) asm volatile("st.shared.v2.u32 [%0], {%1, %2};" ::"r"(a), "r"(v), "r"(v + 1) : "memory");
}
__global__ void bp_sts_16(const DevCase* c, uint32_t*) {
  bool act;
  const uint32_t a = lane_addr(c, &act);
  const uint32_t v = threadIdx.x;
  if (act)
    asm volatile("st.shared.v4.u32 [%0], {%1, %2, %3, %4};" ::"r"(a), "r"(v), "r"(v + 1), "r"(v + 2), "r"(v + 3)
                 : "memory");
}

// ---- ldmatrix (all lanes execute; .x1 reads lanes 0-7's addresses, .x2 lanes 0-15, .x4 all) ----
__global__ void bp_ldsm_x1(const DevCase* c, uint32_t* sink) {
  bool act;
  const uint32_t a = lane_addr(c, &act);
  uint32_t r0;
  asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(r0) : "r"(a));
  sink[threadIdx.x] = r0;
}
__global__ void bp_ldsm_x2(const DevCase* c, uint32_t* sink) {
  bool act;
  const uint32_t a = lane_addr(c, &act);
  uint32_t r0, r1;
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];" : "=r"(r0), "=r"(r1) : "r"(a));
  sink[threadIdx.x] = r0 ^ r1;
}
__global__ void bp_ldsm_x4(const DevCase* c, uint32_t* sink) {
  bool act;
  const uint32_t a = lane_addr(c, &act);
  uint32_t r0, r1, r2, r3;
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
               : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3)
               : "r"(a));
  sink[threadIdx.x] = r0 ^ r1 ^ r2 ^ r3;
}
__global__ void bp_ldsm_x1_trans(const DevCase* c, uint32_t* sink) {
  bool act;
  const uint32_t a = lane_addr(c, &act);
  uint32_t r0;
  asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];" : "=r"(r0) : "r"(a));
  sink[threadIdx.x] = r0;
}
__global__ void bp_ldsm_x2_trans(const DevCase* c, uint32_t* sink) {
  bool act;
  const uint32_t a = lane_addr(c, &act);
  uint32_t r0, r1;
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];" : "=r"(r0), "=r"(r1) : "r"(a));
  sink[threadIdx.x] = r0 ^ r1;
}
__global__ void bp_ldsm_x4_trans(const DevCase* c, uint32_t* sink) {
  bool act;
  const uint32_t a = lane_addr(c, &act);
  uint32_t r0, r1, r2, r3;
  asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
               : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3)
               : "r"(a));
  sink[threadIdx.x] = r0 ^ r1 ^ r2 ^ r3;
}

// ---- cp.async: each lane copies its own, coalesced global bytes to its shared offset ----
__global__ void bp_cpasync_4(const DevCase* c, uint32_t* src) {
  bool act;
  const uint32_t a = lane_addr(c, &act);
  if (act) asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(a), "l"(src + threadIdx.x * 4) : "memory");
  asm volatile("cp.async.wait_all;" ::: "memory");
}
__global__ void bp_cpasync_8(const DevCase* c, uint32_t* src) {
  bool act;
  const uint32_t a = lane_addr(c, &act);
  if (act) asm volatile("cp.async.ca.shared.global [%0], [%1], 8;" ::"r"(a), "l"(src + threadIdx.x * 4) : "memory");
  asm volatile("cp.async.wait_all;" ::: "memory");
}
__global__ void bp_cpasync_16(const DevCase* c, uint32_t* src) {
  bool act;
  const uint32_t a = lane_addr(c, &act);
  if (act) asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(a), "l"(src + threadIdx.x * 4) : "memory");
  asm volatile("cp.async.wait_all;" ::: "memory");
}

using Kernel = void (*)(const DevCase*, uint32_t*);

struct Op {
  const char* name;  // the table's op column: what `gemmscope banks --op` and the test read
  int width;
  Kernel kernel;
};

const Op kOps[] = {
    {"lds", 2, bp_lds_2},
    {"lds", 4, bp_lds_4},
    {"lds", 8, bp_lds_8},
    {"lds", 16, bp_lds_16},
    {"sts", 2, bp_sts_2},
    {"sts", 4, bp_sts_4},
    {"sts", 8, bp_sts_8},
    {"sts", 16, bp_sts_16},
    {"ldmatrix.x1", 16, bp_ldsm_x1},
    {"ldmatrix.x2", 16, bp_ldsm_x2},
    {"ldmatrix.x4", 16, bp_ldsm_x4},
    {"ldmatrix.x1.trans", 16, bp_ldsm_x1_trans},
    {"ldmatrix.x2.trans", 16, bp_ldsm_x2_trans},
    {"ldmatrix.x4.trans", 16, bp_ldsm_x4_trans},
    {"cp.async", 4, bp_cpasync_4},
    {"cp.async", 8, bp_cpasync_8},
    {"cp.async", 16, bp_cpasync_16},
};

const Op& op_of(const std::string& name, int width) {
  for (const Op& o : kOps)
    if (name == o.name && width == o.width) return o;
  std::fprintf(stderr, "bank_probe: no op %s/%d\n", name.c_str(), width);
  std::exit(2);
}

struct Case {
  std::string name;
  std::string op;
  int width;
  int off[kLanes];  // kInactive: the lane skips the instruction
};

using LaneFn = std::function<int(int)>;

std::vector<Case> g_cases;

void add(const std::string& name, const std::string& op, int width, const LaneFn& f) {
  Case c{name, op, width, {}};
  for (int l = 0; l < kLanes; ++l) c.off[l] = f(l);
  g_cases.push_back(c);
}

// Cases shared by loads, stores and cp.async of one width w: strides, padding, XOR permutations,
// broadcasts, lane groups that share an address, inactive lanes, and patterns that tell a model of fixed
// half-/quarter-warp phases from one that looks at the whole warp.
void access_cases(const std::string& op, int w, bool full) {
  const std::string p = op + std::to_string(w) + "_";
  // Strides in units of the access width, then padded strides (one access wider than a power of two).
  for (int s : {1, 2, 4, 8, 16, 32}) add(p + "stride" + std::to_string(s * w), op, w, [=](int l) { return l * s * w; });
  for (int s : {8, 32}) add(p + "stride" + std::to_string(s * w + w) + "_padded", op, w, [=](int l) { return l * (s * w + w); });
  add(p + "reversed", op, w, [=](int l) { return (31 - l) * w; });
  add(p + "perm_x5", op, w, [=](int l) { return ((l * 5) % 32) * w; });
  // Broadcasts.
  add(p + "all_one", op, w, [=](int) { return 256; });
  for (int g : {2, 4, 8, 16}) add(p + "groups" + std::to_string(g) + "_consecutive", op, w, [=](int l) { return (l / g) * w; });
  for (int g : {2, 4, 8}) add(p + "groups" + std::to_string(g) + "_interleaved", op, w, [=](int l) { return (l % (32 / g)) * w; });
  add(p + "groups4_stride128", op, w, [=](int l) { return (l / 4) * 128; });
  add(p + "groups2_stride2w", op, w, [=](int l) { return (l / 2) * 2 * w; });
  add(p + "two_words_one_bank", op, w, [=](int l) { return (l % 2) * 128; });
  // Same bytes in the two halves / four quarters of the warp (phase merging).
  add(p + "halves_equal", op, w, [=](int l) { return (l % 16) * w; });
  add(p + "quarters_equal", op, w, [=](int l) { return (l % 8) * w; });
  add(p + "quarters_equal_stride2", op, w, [=](int l) { return (l % 8) * 2 * w; });
  // Complementary phases: each quarter (half) alone is 2-way, together they fill each bank twice.
  add(p + "quarters_complement", op, w, [=](int l) {
    const int q = l / 8, i = l % 8;  // quarter q: 16-byte chunks of quads 4(q%2)..+3, two rows
    return (q % 2) * 64 + (q / 2) * 256 + (i % 4) * 16 + (i / 4) * 128;
  });
  add(p + "halves_complement", op, w, [=](int l) {
    const int h = l / 16, i = l % 16, k = 64 / w;  // half h: banks 16h..16h+15, 16/k rows
    return h * 64 + (i % k) * w + (i / k) * 128;
  });
  // XOR permutation of 16-byte chunks in 128-byte rows: lane l reads chunk 0 of row l (column access).
  add(p + "column_rows128", op, w, [=](int l) { return l * 128; });
  add(p + "column_rows128_xor", op, w, [=](int l) { return l * 128 + ((l % 8) * 16); });
  add(p + "column_rows64_xor", op, w, [=](int l) { return l * 64 + ((l / 2) % 4) * 16; });
  // Inactive lanes.
  add(p + "odd_lanes_off", op, w, [=](int l) { return l % 2 ? kInactive : l * w; });
  add(p + "one_lane", op, w, [=](int l) { return l == 5 ? 4 * w * 7 : kInactive; });
  add(p + "first_half_off_stride128", op, w, [=](int l) { return l < 16 ? kInactive : l * 128; });
  add(p + "every4th_stride128", op, w, [=](int l) { return l % 4 ? kInactive : l * 128; });
  add(p + "quarter1_only_conflict", op, w, [=](int l) { return l / 8 == 1 ? (l % 8) * 128 : kInactive; });
  add(p + "no_lane", op, w, [=](int) { return kInactive; });
  if (!full) return;
  // Random: offsets drawn from a small pool of aligned addresses (so lanes share and collide often),
  // some lanes inactive. Seeded: the table is reproducible.
  std::mt19937 rng(1000 + w * 7 + static_cast<int>(op.size()) * 131 + op[0]);
  for (int r = 0; r < 8; ++r) {
    const int pool = 2 + static_cast<int>(rng() % 40), span = 1024;
    std::vector<int> addrs(pool);
    for (int& a : addrs) a = static_cast<int>(rng() % (span / w)) * w;
    const int p_off = static_cast<int>(rng() % 4);  // 0..3 in 8 lanes inactive
    int off[kLanes];
    for (int l = 0; l < kLanes; ++l) off[l] = (static_cast<int>(rng() % 8) < p_off) ? kInactive : addrs[rng() % pool];
    add(p + "random" + std::to_string(r), op, w, [=](int l) { return off[l]; });
  }
}

// 2-byte accesses: the cases above in units of 2 bytes, plus the halves of words and the mma_f16 rungs' B
// fragment before ldmatrix: lane (g = l / 4, t = l % 4) reads the half at row 2t (+1) and column g of a
// row-major tile of `pitch` bytes.
void half_cases(const std::string& op) {
  const std::string p = op + "2_";
  add(p + "word_halves_swapped", op, 2, [=](int l) { return (l ^ 1) * 2; });
  add(p + "halves_of_16_words_stride64", op, 2, [=](int l) { return (l / 2) * 64 + (l % 2) * 2; });
  add(p + "one_half_per_bank_two_words", op, 2, [=](int l) { return (l % 2) * 2 + (l / 2) * 4 + (l / 16) * 64; });
  for (int pitch : {256, 272, 512}) {
    for (int row : {0, 1})
      add(p + "bfrag_pitch" + std::to_string(pitch) + "_row" + std::to_string(row), op, 2,
          [=](int l) { return (2 * (l % 4) + row) * pitch + (l / 4) * 2; });
  }
}

void ldmatrix_cases(const std::string& op, bool full) {
  const int m = op.find("x4") != std::string::npos ? 4 : op.find("x2") != std::string::npos ? 2 : 1;
  const std::string p = op + "_";
  // Row r of matrix i comes from lane 8i + r. A row-major tile with a pitch of `pitch` bytes, the
  // matrices side by side along the row (the mma fragment's k direction).
  for (int pitch : {16, 32, 64, 80, 128, 144, 256, 272}) {
    add(p + "pitch" + std::to_string(pitch), op, 16, [=](int l) { return (l % 8) * pitch + (l / 8) * 16; });
  }
  // Matrices stacked along the rows instead (lane l reads row l of a 32-row tile).
  for (int pitch : {16, 64, 128, 144}) add(p + "rows_pitch" + std::to_string(pitch), op, 16, [=](int l) { return l * pitch; });
  // The XOR permutation of mma_f16/09: chunk c of row r sits at chunk c ^ (r % 8).
  add(p + "pitch128_xor", op, 16, [=](int l) { return (l % 8) * 128 + (((l / 8) ^ (l % 8)) * 16); });
  add(p + "pitch64_xor", op, 16, [=](int l) {
    const int r = l % 8, c = l / 8;  // 64-byte rows: two rows per 128 bytes, xor by (r / 2) % 4
    return r * 64 + ((c ^ ((r / 2) % 4)) % 4) * 16;
  });
  add(p + "all_one_row", op, 16, [=](int) { return 512; });
  add(p + "rows_pairs_equal", op, 16, [=](int l) { return (l / 2) * 16; });
  add(p + "matrices_equal_pitch16", op, 16, [=](int l) { return (l % 8) * 16; });
  add(p + "matrices_equal_pitch128", op, 16, [=](int l) { return (l % 8) * 128; });
  add(p + "matrices_complement", op, 16, [=](int l) {
    // Matrix i: rows in quads 4(i%2)..4(i%2)+3, two per quad: 2-way inside each matrix on its own.
    const int i = l / 8, r = l % 8;
    return (i % 2) * 64 + (r % 4) * 16 + (r / 4) * 128 + (i / 2) * 256;
  });
  // Lanes that supply no row address hold addresses that would conflict.
  if (m < 4) add(p + "unused_lanes_conflict", op, 16, [=](int l) { return l < 8 * m ? l * 16 : (l % 8) * 128 + 1024; });
  if (!full) return;
  std::mt19937 rng(77 + m * 13 + static_cast<int>(op.size()));
  for (int r = 0; r < 6; ++r) {
    const int pool = 2 + static_cast<int>(rng() % 30);
    std::vector<int> addrs(pool);
    for (int& a : addrs) a = static_cast<int>(rng() % 64) * 16;
    int off[kLanes];
    for (int l = 0; l < kLanes; ++l) off[l] = addrs[rng() % pool];
    add(p + "random" + std::to_string(r), op, 16, [=](int l) { return off[l]; });
  }
}

void build_cases() {
  for (int w : {2, 4, 8, 16}) access_cases("lds", w, true);
  half_cases("lds");
  for (int w : {2, 4, 8, 16}) access_cases("sts", w, true);
  half_cases("sts");
  for (const char* op : {"ldmatrix.x1", "ldmatrix.x2", "ldmatrix.x4"}) ldmatrix_cases(op, true);
  for (const char* op : {"ldmatrix.x1.trans", "ldmatrix.x2.trans", "ldmatrix.x4.trans"}) ldmatrix_cases(op, false);
  for (int w : {4, 8, 16}) access_cases("cp.async", w, false);
  // .trans and cp.async: a subset (the bank side of .trans should not differ; cp.async writes like a store).
  std::vector<Case> keep;
  const char* subset[] = {"pitch16", "pitch128", "pitch144", "pitch128_xor", "all_one_row", "matrices_equal_pitch128",
                          "stride4", "stride8", "stride16", "stride32", "stride128", "stride132_padded",
                          "stride264_padded", "stride528_padded", "all_one", "groups2_consecutive",
                          "groups4_consecutive", "groups8_interleaved", "quarters_equal", "halves_equal",
                          "quarters_complement", "column_rows128", "column_rows128_xor", "odd_lanes_off",
                          "every4th_stride128", "two_words_one_bank", "no_lane"};
  for (const Case& c : g_cases) {
    const bool reduced = c.op.find(".trans") != std::string::npos || c.op == "cp.async";
    bool in = !reduced;
    for (const char* s : subset) in = in || c.name.substr(c.name.find('_') + 1) == s;
    if (in) keep.push_back(c);
  }
  g_cases = keep;
}

void write_table(FILE* f) {
  std::fprintf(f, "case\top\twidth\toffsets\n");
  for (const Case& c : g_cases) {
    std::fprintf(f, "%s\t%s\t%d\t", c.name.c_str(), c.op.c_str(), c.width);
    for (int l = 0; l < kLanes; ++l) {
      if (c.off[l] == kInactive) std::fprintf(f, "%s-", l ? " " : "");
      else std::fprintf(f, "%s%d", l ? " " : "", c.off[l]);
    }
    std::fprintf(f, "\n");
  }
}

int run_cases(const char* path, const std::string& prefix) {
  std::vector<Case> keep;
  for (const Case& c : g_cases)
    if (c.op.rfind(prefix, 0) == 0 || c.name.rfind(prefix, 0) == 0) keep.push_back(c);
  g_cases = keep;
  FILE* f = std::fopen(path, "w");
  if (!f) {
    std::fprintf(stderr, "bank_probe: cannot write %s\n", path);
    return 1;
  }
  write_table(f);
  std::fclose(f);
  for (const Op& o : kOps) CHECK(cudaFuncSetAttribute(o.kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmemBytes));
  DevCase* dcase;
  uint32_t* sink;
  CHECK(cudaMalloc(&dcase, sizeof(DevCase)));
  CHECK(cudaMalloc(&sink, 64 * 1024));
  std::vector<uint32_t> ones(16 * 1024, 0x3f800001u);
  CHECK(cudaMemcpy(sink, ones.data(), ones.size() * 4, cudaMemcpyHostToDevice));
  for (const Case& c : g_cases) {
    DevCase h{};
    for (int l = 0; l < kLanes; ++l) {
      const bool ldsm = c.op.rfind("ldmatrix", 0) == 0;
      if (c.off[l] == kInactive) {
        h.off[l] = 0;  // ldmatrix lanes with no case address: any aligned offset (they are not read)
      } else {
        h.off[l] = static_cast<uint32_t>(c.off[l]);
        h.active |= 1u << l;
      }
      if (ldsm) h.active |= 1u << l;
    }
    CHECK(cudaMemcpy(dcase, &h, sizeof h, cudaMemcpyHostToDevice));
    op_of(c.op, c.width).kernel<<<1, kLanes, kSmemBytes>>>(dcase, sink);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
  }
  std::printf("bank_probe: %zu cases launched\n", g_cases.size());
  return 0;
}

// ---- price: cycles per warp-wide load at a given conflict degree ----
// kPriceUnroll independent chains per warp: each load's address depends on the previous load of its chain
// (through `zero`, 0 at run time), so ptxas can neither merge the loads nor hoist them out of the loop, and
// kPriceUnroll of them are in flight at once. Chains sit 2 KiB apart: the same banks, different words.
constexpr int kPriceIters = 256, kPriceUnroll = 16, kChainBytes = 2048;

template <int W>
__global__ void bp_price(const uint32_t* offs, uint32_t zero, unsigned long long* cycles, uint32_t* sink) {
  uint32_t a[kPriceUnroll];
#pragma unroll
  for (int u = 0; u < kPriceUnroll; ++u)
    a[u] = static_cast<uint32_t>(__cvta_generic_to_shared(smem)) + offs[threadIdx.x % 32] + u * kChainBytes;
  uint32_t acc = 0;
  __syncthreads();
  const long long t0 = clock64();
  for (int it = 0; it < kPriceIters; ++it) {
#pragma unroll
    for (int u = 0; u < kPriceUnroll; ++u) {
      uint32_t v0 = 0, v1 = 0, v2 = 0, v3 = 0;
      if (W == 2) {
        uint16_t h;
        asm volatile("ld.shared.u16 %0, [%1];" : "=h"(h) : "r"(a[u]));
        v0 = h;
      }
      if (W == 4) asm volatile("ld.shared.u32 %0, [%1];" : "=r"(v0) : "r"(a[u]));
      if (W == 8) asm volatile("ld.shared.v2.u32 {%0, %1}, [%2];" : "=r"(v0), "=r"(v1) : "r"(a[u]));
      if (W == 16) asm volatile("ld.shared.v4.u32 {%0, %1, %2, %3}, [%4];" : "=r"(v0), "=r"(v1), "=r"(v2), "=r"(v3) : "r"(a[u]));
      const uint32_t v = v0 ^ v1 ^ v2 ^ v3;
      a[u] += v & zero;
      acc += v;
    }
  }
  // The loads must have returned before the second stamp: a store that depends on every loaded value,
  // then the barrier (which the store cannot move below).
  if (acc == 0x12345678u) sink[threadIdx.x] = acc;
  __syncthreads();
  const long long t1 = clock64();
  if (threadIdx.x == 0) *cycles = static_cast<unsigned long long>(t1 - t0);
}

int run_price(const char* widths) {
  uint32_t* doffs;
  unsigned long long* dcyc;
  uint32_t* sink;
  CHECK(cudaMalloc(&doffs, 128));
  CHECK(cudaMalloc(&dcyc, 8));
  CHECK(cudaMalloc(&sink, 4096 * 4));
  CHECK(cudaFuncSetAttribute(bp_price<2>, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmemBytes));
  CHECK(cudaFuncSetAttribute(bp_price<4>, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmemBytes));
  CHECK(cudaFuncSetAttribute(bp_price<8>, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmemBytes));
  CHECK(cudaFuncSetAttribute(bp_price<16>, cudaFuncAttributeMaxDynamicSharedMemorySize, kSmemBytes));
  std::printf("width\tstride_bytes\twarps\tcycles_per_instruction\n");
  // PRICE_WIDTHS: which widths to measure (default all: 2, 4, 8, 16). 2 bytes also at a 128-byte stride, 32-way.
  for (int w : {2, 4, 8, 16}) {
    if (widths && !std::strstr(widths, (std::string(",") + std::to_string(w) + ",").c_str())) continue;
    for (int s : {1, 2, 4, 8, 16, 32, 64}) {
      if (s == 64 && w != 2) continue;
      const int stride = s * w;
      if (31 * stride + w + (kPriceUnroll - 1) * kChainBytes > kSmemBytes) continue;
      uint32_t h[kLanes];
      for (int l = 0; l < kLanes; ++l) h[l] = static_cast<uint32_t>(l * stride);
      CHECK(cudaMemcpy(doffs, h, sizeof h, cudaMemcpyHostToDevice));
      for (int warps : {1, 4, 16}) {
        double best = 1e30;
        for (int rep = 0; rep < 5; ++rep) {  // the fastest of 5: the first pays for cold instruction caches
          if (w == 2) bp_price<2><<<1, warps * 32, kSmemBytes>>>(doffs, 0u, dcyc, sink);
          if (w == 4) bp_price<4><<<1, warps * 32, kSmemBytes>>>(doffs, 0u, dcyc, sink);
          if (w == 8) bp_price<8><<<1, warps * 32, kSmemBytes>>>(doffs, 0u, dcyc, sink);
          if (w == 16) bp_price<16><<<1, warps * 32, kSmemBytes>>>(doffs, 0u, dcyc, sink);
          CHECK(cudaGetLastError());
          unsigned long long cyc = 0;
          CHECK(cudaMemcpy(&cyc, dcyc, 8, cudaMemcpyDeviceToHost));
          best = std::min(best, double(cyc) / (double(kPriceIters) * kPriceUnroll * warps));
        }
        std::printf("%d\t%d\t%d\t%.2f\n", w, stride, warps, best);
      }
    }
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  build_cases();
  const std::string cmd = argc > 1 ? argv[1] : "";
  if (cmd == "cases" && (argc == 3 || argc == 4)) return run_cases(argv[2], argc == 4 ? argv[3] : "");
  if (cmd == "price" && argc <= 3) {
    const std::string widths = argc == 3 ? "," + std::string(argv[2]) + "," : "";  // "2,4" -> ",2,4,"
    return run_price(argc == 3 ? widths.c_str() : nullptr);
  }
  if (cmd == "list") {
    write_table(stdout);
    return 0;
  }
  std::fprintf(stderr, "usage: bank_probe cases FILE.tsv [OP] | price [WIDTHS] | list\n");
  return 2;
}
