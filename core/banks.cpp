#include "core/banks.h"

#include <algorithm>
#include <istream>
#include <stdexcept>

// Where the rules come from (all public; none of their text or code is copied here):
// - Bank geometry and broadcast: CUDA C++ Programming Guide, "Compute Capabilities", the "Shared Memory"
//   subsections for 5.x and later: 32 banks, successive 32-bit words in successive banks, and no conflict
//   between lanes that read the same 32-bit word (the word is broadcast).
// - Wavefronts, and conflicts as wavefronts above the ideal: Nsight Compute Kernel Profiling Guide
//   ("wavefront": the work items of one wavefront are processed in parallel, wavefronts are serialized)
//   and the GTC 2022 talk S41723 "How to Understand and Optimize Shared Memory Accesses using Nsight
//   Compute". DESIGN.md's two measured H200 numbers (stride 128 B: W 32, C 31; stride 132 B: 1, 0) are
//   what the 4-byte rule must reproduce.
// - Phases of wide accesses: a 64-bit access is served per half-warp and a 128-bit access per
//   quarter-warp, each phase up to 128 bytes, so lanes in different phases never conflict with each
//   other: the discussion in NVIDIA/cutlass issue #328 (a half-warp of 8-byte or a quarter-warp of
//   16-byte accesses may each read its own 128-byte region at full speed), the GTC 2019
//   cuTENSOR slides S9593 that Dao-AILab/flash-attention issue #738 cites (128-bit accesses: threads
//   0-7 are one phase, 8-15 the next), and the NVIDIA developer forum thread "Clarification:
//   bank_conflicts metric vs wavefronts for shared memory LDS.128" (Nsight Compute: 4 wavefronts per
//   LDS.128 for a conflict-free layout and 32, the most 4 phases of 8 lanes can take, for a bad one).
// - ldmatrix: PTX ISA, "Warp-level matrix load instruction: ldmatrix": each 8x8 matrix of .b16 has its 8
//   row addresses (16 bytes each, 16-byte aligned) supplied by 8 consecutive threads, threads 0-7 for
//   the first matrix, 8-15 for the second, and so on. One matrix is 128 bytes, one wavefront when its 8
//   rows cover all 32 banks, hence DESIGN.md's ideal of one wavefront per matrix.
//
// Where the model may differ from Nsight Compute:
// - Broadcast across phases. The model never merges phases, so a wide access whose phases read the same
//   bytes (every lane the same 16 bytes, or each quarter-warp the same 128 bytes) gets one wavefront per
//   non-empty phase, above the byte-count ideal: W 4, I 1, C 3 for LDS.128. The hardware merges some of
//   these: a reply in the NVIDIA developer forum thread "Unexpected shared memory bank conflict"
//   describes LDS.128 with uniform lane pairs (Tn == Tn^1 or Tn == Tn^2) on CC 7.x taking 2 requests,
//   not 4.
//   Nsight Compute may then report fewer wavefronts and conflicts than this model.
// - Empty phases are free here (a quarter-warp with no active lane costs nothing); whether the hardware
//   skips them is not documented.
// - Misaligned offsets are modelled word by word (the words the byte range touches); real hardware
//   faults on them, so the CLI rejects them before they get here.
// - Only loads are modelled. Stores and cp.async writes to one word from several lanes are not a
//   broadcast (one write lands), and the profiler counts them under its own _op_st metrics; a traced
//   store is shown with the load rules.

namespace gs {

namespace {

constexpr int kLanes = 32;
constexpr int kLdmatrixRowBytes = 16;  // 8 .b16 elements per row of an 8x8 matrix

// A set of lanes whose requests the hardware considers together; bank conflicts exist only inside one.
struct Phase {
  int first_lane = 0, lanes = 0;
};

// One phase's schedule: for each bank, its distinct words in the order lanes first asked for them.
// The k-th distinct word of every bank goes to the phase's k-th wavefront, so each wavefront reads at
// most one word per bank, and the phase needs as many wavefronts as its busiest bank has words. No
// schedule can do better: a bank with n distinct words needs n wavefronts.
void schedule_phase(const LaneOffsets& offsets, Phase ph, int phase_index, int bytes_per_lane, BankReport* r) {
  std::array<std::vector<uint32_t>, kSmemBanks> words_in_bank;
  std::array<std::vector<std::vector<int>>, kSmemBanks> word_lanes;  // [bank][k]: lanes asking for its k-th word
  std::array<std::vector<int>, kLanes> lane_wavefronts;  // wavefront indices (within the phase) of each lane
  int phase_wavefronts = 0;
  for (int lane = ph.first_lane; lane < ph.first_lane + ph.lanes; ++lane) {
    if (!offsets[lane]) continue;
    const uint64_t begin = *offsets[lane], end = begin + static_cast<uint64_t>(bytes_per_lane);
    // Word granularity: an aligned access of 8 or 16 bytes touches 2 or 4 consecutive words (banks).
    for (uint64_t w = begin / kSmemBankBytes; w * kSmemBankBytes < end; ++w) {
      const uint32_t word = static_cast<uint32_t>(w);
      std::vector<uint32_t>& in_bank = words_in_bank[word % kSmemBanks];
      const auto it = std::find(in_bank.begin(), in_bank.end(), word);
      const int k = static_cast<int>(it - in_bank.begin());
      if (it == in_bank.end()) {  // a new word: the bank's next wavefront
        in_bank.push_back(word);
        word_lanes[word % kSmemBanks].emplace_back();
      }
      // A word already asked for is broadcast: this lane rides along in the wavefront that reads it.
      word_lanes[word % kSmemBanks][k].push_back(lane);  // lanes ascend; a lane touches a word once
      std::vector<int>& mine = lane_wavefronts[lane];
      if (std::find(mine.begin(), mine.end(), k) == mine.end()) mine.push_back(k);
      phase_wavefronts = std::max(phase_wavefronts, static_cast<int>(in_bank.size()));
    }
  }
  const size_t base = r->wavefront_lanes.size();
  r->wavefront_lanes.resize(base + phase_wavefronts);
  r->wavefront_banks.resize(base + phase_wavefronts);
  r->wavefront_phase.resize(base + phase_wavefronts, phase_index);
  for (int bank = 0; bank < kSmemBanks; ++bank)
    for (size_t k = 0; k < words_in_bank[bank].size(); ++k)
      r->wavefront_banks[base + k][bank] = BankSlot{words_in_bank[bank][k], std::move(word_lanes[bank][k])};
  for (int lane = ph.first_lane; lane < ph.first_lane + ph.lanes; ++lane)
    for (int k : lane_wavefronts[lane]) r->wavefront_lanes[base + k].push_back(lane);  // lanes ascend
  r->wavefronts += phase_wavefronts;
}

}  // namespace

std::optional<SmemOp> parse_smem_op(std::string_view s) {
  if (s == "lds") return SmemOp::Lds;
  if (s == "ldmatrix.x1") return SmemOp::LdmatrixX1;
  if (s == "ldmatrix.x2") return SmemOp::LdmatrixX2;
  if (s == "ldmatrix.x4") return SmemOp::LdmatrixX4;
  return std::nullopt;
}

const char* smem_op_name(SmemOp op) {
  switch (op) {
    case SmemOp::Lds: return "lds";
    case SmemOp::LdmatrixX1: return "ldmatrix.x1";
    case SmemOp::LdmatrixX2: return "ldmatrix.x2";
    case SmemOp::LdmatrixX4: return "ldmatrix.x4";
  }
  return "?";
}

int ldmatrix_matrices(SmemOp op) {
  switch (op) {
    case SmemOp::Lds: return 0;
    case SmemOp::LdmatrixX1: return 1;
    case SmemOp::LdmatrixX2: return 2;
    case SmemOp::LdmatrixX4: return 4;
  }
  return 0;
}

int phase_lanes(int width_bytes, SmemOp op) {
  if (op != SmemOp::Lds) return 8;
  return width_bytes == 16 ? 8 : width_bytes == 8 ? 16 : kLanes;  // 128 bytes of distinct lanes per phase
}

int required_alignment(int width_bytes, SmemOp op) {
  return op == SmemOp::Lds ? width_bytes : kLdmatrixRowBytes;
}

BankReport bank_report(const LaneOffsets& offsets, int width_bytes, SmemOp op) {
  BankReport r;
  const int matrices = ldmatrix_matrices(op);
  if (matrices > 0) {
    // ldmatrix: matrix m is its own phase, rows from lanes 8m..8m+7; lanes past 8 * matrices supply no
    // address (.x1 reads lanes 0-7, .x2 lanes 0-15) whatever they hold.
    for (int m = 0; m < matrices; ++m) {
      const Phase ph{8 * m, 8};
      const int before = r.wavefronts;
      schedule_phase(offsets, ph, m, kLdmatrixRowBytes, &r);
      if (r.wavefronts > before) ++r.ideal;  // a matrix with no row address loads nothing to count
    }
    r.conflicts = r.wavefronts - r.ideal;
    return r;
  }

  if (width_bytes != 4 && width_bytes != 8 && width_bytes != 16)
    throw std::invalid_argument("shared-memory access width must be 4, 8 or 16 bytes, got " +
                                std::to_string(width_bytes));
  // lds: one phase of 32 lanes for 32-bit accesses, half-warps for 64-bit, quarter-warps for 128-bit;
  // every phase asks for at most 128 bytes when its lanes are distinct, one wavefront's worth.
  const int lanes_per_phase = phase_lanes(width_bytes, op);
  for (int first = 0; first < kLanes; first += lanes_per_phase)
    schedule_phase(offsets, Phase{first, lanes_per_phase}, first / lanes_per_phase, width_bytes, &r);

  // Ideal: the distinct bytes the warp asked for, 128 per wavefront (DESIGN.md's I). Bytes, not words,
  // so a misaligned access is charged for what it touched.
  std::vector<uint32_t> bytes;
  bytes.reserve(kLanes * 16);
  for (const std::optional<uint32_t>& off : offsets) {
    if (!off) continue;
    for (int b = 0; b < width_bytes; ++b) bytes.push_back(*off + static_cast<uint32_t>(b));
  }
  if (bytes.empty()) return r;  // no active lane: no request, nothing to count
  std::sort(bytes.begin(), bytes.end());
  const int distinct = static_cast<int>(std::unique(bytes.begin(), bytes.end()) - bytes.begin());
  r.ideal = std::max(1, (distinct + kWavefrontBytes - 1) / kWavefrontBytes);
  r.conflicts = r.wavefronts - r.ideal;
  return r;
}

namespace {

bool is_hex_digit(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

// Decimal or 0x-prefixed hex; false for anything else (signs, suffixes, empty digits). Values saturate
// just past kMaxSmemBytes so a long token cannot overflow; the caller reports it as too large.
bool parse_offset(const std::string& tok, uint64_t* value) {
  const bool hex = tok.size() > 2 && tok[0] == '0' && (tok[1] == 'x' || tok[1] == 'X');
  const size_t start = hex ? 2 : 0;
  if (tok.size() == start) return false;
  uint64_t v = 0;
  for (size_t i = start; i < tok.size(); ++i) {
    const char c = tok[i];
    int d;
    if (hex) {
      if (!is_hex_digit(c)) return false;
      d = c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10;
    } else {
      if (c < '0' || c > '9') return false;
      d = c - '0';
    }
    v = std::min<uint64_t>(v * (hex ? 16 : 10) + static_cast<uint64_t>(d), uint64_t{kMaxSmemBytes} + 1);
  }
  *value = v;
  return true;
}

}  // namespace

bool parse_lane_offsets(std::istream& in, LaneOffsets* out, std::string* error) {
  // Shape first (a missing or extra token shifts every lane after it, so per-token complaints would
  // mislead), then each token in lane order.
  std::vector<std::string> tokens;
  long count = 0;
  for (std::string tok; in >> tok; ++count)
    if (count < kLanes) tokens.push_back(tok);
  if (count != kLanes) {
    *error = "expected 32 offsets, got " + std::to_string(count);
    return false;
  }
  LaneOffsets parsed{};
  for (int lane = 0; lane < kLanes; ++lane) {
    const std::string& tok = tokens[lane];
    if (tok == "-") continue;  // inactive lane
    uint64_t v = 0;
    if (!parse_offset(tok, &v)) {
      *error = "token " + std::to_string(lane + 1) + " '" + tok + "' is not a number";
      return false;
    }
    if (v >= kMaxSmemBytes) {
      *error = "lane " + std::to_string(lane) + ": offset " + tok + " is too large (shared memory ends at " +
               std::to_string(kMaxSmemBytes) + ")";
      return false;
    }
    parsed[lane] = static_cast<uint32_t>(v);
  }
  *out = parsed;
  return true;
}

bool check_lane_alignment(const LaneOffsets& offsets, int width_bytes, SmemOp op, std::string* error) {
  const int align = required_alignment(width_bytes, op);
  if (align <= 0) return true;
  for (int lane = 0; lane < kLanes; ++lane) {
    if (offsets[lane] && *offsets[lane] % static_cast<uint32_t>(align) != 0) {
      *error = "lane " + std::to_string(lane) + ": offset " + std::to_string(*offsets[lane]) +
               " is not aligned to " + std::to_string(align) + " bytes";
      return false;
    }
  }
  return true;
}

bool parse_lane_offsets(std::istream& in, int width_bytes, SmemOp op, LaneOffsets* out, std::string* error) {
  LaneOffsets parsed{};
  if (!parse_lane_offsets(in, &parsed, error)) return false;
  if (!check_lane_alignment(parsed, width_bytes, op, error)) return false;
  *out = parsed;
  return true;
}

}  // namespace gs
