#include "core/banks.h"

#include <algorithm>
#include <cctype>
#include <sstream>
#include <istream>
#include <stdexcept>

#include "core/text.h"

// The rules, each fitted to and checked against tests/data/bank_probe_h100.tsv: bench/bank_probe.cu runs
// one warp and one shared-memory instruction per launch and tools/bank_ncu.sh reads Nsight Compute's
// counters for it (H100, driver 580.159.04). core_banks_test checks every row of that table.
//
// 1. Banks: 32 banks of 4-byte words (CUDA C++ Programming Guide, "Compute Capabilities", shared memory
//    of 5.x and later). Within one phase, lanes that ask for the same word share it (a load broadcasts
//    it; stores to one word from several lanes also take one slot), and a phase needs as many wavefronts
//    as its busiest bank has distinct words.
// 2. Phases of loads follow the return path, 128 bytes (one 32-bit register for 32 lanes) per wavefront,
//    as an NVIDIA engineer describes it in the developer-forum thread "Unexpected shared memory bank
//    conflict" (2019): an 8-byte load is served a half-warp at a time and a 16-byte load a quarter-warp
//    at a time, UNLESS the return can be packed: when lanes l and l^1 read the same address wherever
//    both are active (or l and l^2 do), an 8-byte load is served as one phase of 32 lanes and a 16-byte
//    load in two phases of 16. Measured: all lanes on one address (8 B: W 1; 16 B: W 2), lane pairs
//    sharing (l / 2) * 8 (W 1), but lanes l and l + 16 sharing an address, which cannot be packed, still
//    take one phase per half-warp (W 2): the fixed half-/quarter-warp phases over-count exactly the
//    packed cases. Phases are never merged otherwise, even when bank-disjoint.
// 3. Stores are never packed: 8 bytes per half-warp, 16 per quarter-warp (all lanes on one 16-byte
//    address: W 4).
// 4. ldmatrix: matrix m is one phase whose rows come from lanes 8m..8m+7 (PTX ISA, "ldmatrix"); lanes past
//    the last matrix's are not read. .trans changes nothing on the bank side (measured for .x1/.x2/.x4).
// 5. The ideal I is the number of phases with an active lane (empty phases cost nothing): ncu's
//    conflicts are the wavefronts a phase takes beyond its first.
// 6. cp.async (LDGSTS) writes 8 lanes per wavefront for every width and serialises lanes that write the
//    same word (all lanes on one word: W 32). Ncu's ideal is width / 4 wavefronts (1 for 4 bytes, 2 for 8),
//    and no more than the active quarters. This matches the 4- and 8-byte .ca rows except where several
//    consecutive lanes write one word (groups of 2 or 4) or quarters pair up bank-disjoint
//    (quarters_complement): the hardware takes fewer wavefronts there, by a rule not found
//    (bench/NOTES.md lists the rows). For 16-byte cp.async.cg, Nsight Compute's hardware counters count
//    no conflicts at all (l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ldgsts is 0 on every row,
//    even 32 lanes on one bank); the model's numbers there are what the banks must serve, not what ncu
//    shows.
// 7. A 2-byte load or store (ld/st.shared.u16, the mma_f16 rungs' B fragments before ldmatrix) is one phase of
//    32 lanes, 64 bytes at most: lanes reading the two halves of one word share it as in rule 1, and a bank
//    serving two words of one phase takes two wavefronts (tests/data/bank_probe_u16_h200.tsv).
// Misaligned offsets are modelled word by word (the words the byte range touches); real hardware faults
// on them, so the CLI rejects them before they get here.

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
// merge: lanes asking for the same word share one slot (loads, stores); cp.async writes each lane's word
// in a wavefront of its own.
void schedule_phase(const LaneOffsets& offsets, Phase ph, int phase_index, int bytes_per_lane, bool merge,
                    BankReport* r) {
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
      const auto it = merge ? std::find(in_bank.begin(), in_bank.end(), word) : in_bank.end();
      const int k = static_cast<int>(it - in_bank.begin());
      if (it == in_bank.end()) {  // a new word (or, without merging, a new request): the bank's next wavefront
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
  if (s == "sts") return SmemOp::Sts;
  if (s == "cp.async") return SmemOp::CpAsync;
  if (s == "ldmatrix.x1") return SmemOp::LdmatrixX1;
  if (s == "ldmatrix.x2") return SmemOp::LdmatrixX2;
  if (s == "ldmatrix.x4") return SmemOp::LdmatrixX4;
  return std::nullopt;
}

const char* smem_op_name(SmemOp op) {
  switch (op) {
    case SmemOp::Lds: return "lds";
    case SmemOp::Sts: return "sts";
    case SmemOp::CpAsync: return "cp.async";
    case SmemOp::LdmatrixX1: return "ldmatrix.x1";
    case SmemOp::LdmatrixX2: return "ldmatrix.x2";
    case SmemOp::LdmatrixX4: return "ldmatrix.x4";
  }
  return "?";
}

int ldmatrix_matrices(SmemOp op) {
  switch (op) {
    case SmemOp::LdmatrixX1: return 1;
    case SmemOp::LdmatrixX2: return 2;
    case SmemOp::LdmatrixX4: return 4;
    default: return 0;
  }
}

namespace {

// Rule 2: lanes l and l ^ partner read the same address wherever both are active.
bool pairs_share(const LaneOffsets& o, int partner) {
  for (int lane = 0; lane < kLanes; ++lane) {
    const std::optional<uint32_t>& a = o[lane];
    const std::optional<uint32_t>& b = o[lane ^ partner];
    if (a && b && *a != *b) return false;
  }
  return true;
}

void check_width(int width_bytes, SmemOp op) {
  if (!smem_width_ok(width_bytes, op))
    throw std::invalid_argument(std::string("shared-memory access width must be ") +
                                (op == SmemOp::CpAsync ? "4, 8 or 16" : "2, 4, 8 or 16") + " bytes, got " +
                                std::to_string(width_bytes));
}

}  // namespace

int phase_lanes(const LaneOffsets& offsets, int width_bytes, SmemOp op) {
  if (is_ldmatrix(op) || op == SmemOp::CpAsync) return 8;
  const int unpacked = width_bytes == 16 ? 8 : width_bytes == 8 ? 16 : kLanes;  // 128 bytes of lanes
  if (op == SmemOp::Lds && width_bytes > 4 && (pairs_share(offsets, 1) || pairs_share(offsets, 2)))
    return 2 * unpacked;
  return unpacked;
}

bool smem_width_ok(int width_bytes, SmemOp op) {
  if (is_ldmatrix(op)) return true;
  const bool half = width_bytes == 2 && op != SmemOp::CpAsync;  // cp.async copies 4, 8 or 16 bytes
  return half || width_bytes == 4 || width_bytes == 8 || width_bytes == 16;
}

int required_alignment(int width_bytes, SmemOp op) { return is_ldmatrix(op) ? kLdmatrixRowBytes : width_bytes; }

BankReport bank_report(const LaneOffsets& offsets, int width_bytes, SmemOp op) {
  BankReport r;
  if (!is_ldmatrix(op)) check_width(width_bytes, op);
  const int bytes = is_ldmatrix(op) ? kLdmatrixRowBytes : width_bytes;
  const int lanes = phase_lanes(offsets, width_bytes, op);
  // ldmatrix: lanes past 8 * matrices supply no address (.x1 reads lanes 0-7, .x2 lanes 0-15), whatever
  // they hold.
  const int used = is_ldmatrix(op) ? 8 * ldmatrix_matrices(op) : kLanes;
  r.phase_lanes = lanes;
  r.packed = op == SmemOp::Lds && width_bytes > 4 && lanes > phase_lanes(LaneOffsets{}, width_bytes, SmemOp::Sts);
  int active_phases = 0;
  for (int first = 0; first < used; first += lanes) {
    const int before = r.wavefronts;
    schedule_phase(offsets, Phase{first, lanes}, first / lanes, bytes, op != SmemOp::CpAsync, &r);
    active_phases += r.wavefronts > before;  // an empty phase makes no request
  }
  // Rule 5; cp.async (rule 6): width / 4, at most the active quarters.
  r.ideal = op == SmemOp::CpAsync ? std::min(active_phases, width_bytes / kSmemBankBytes) : active_phases;
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
  // 32 offsets fit in well under a kilobyte: read at most 64 KB, so that endless input (`< /dev/zero`, a
  // pipe that never closes its flood) is refused instead of filling memory.
  constexpr size_t kMaxInput = 64 << 10;
  std::string text(kMaxInput + 1, '\0');
  in.read(text.data(), std::streamsize(text.size()));
  text.resize(size_t(in.gcount()));
  if (text.size() > kMaxInput) {
    *error = "more than 64 KB of input: expected 32 offsets";
    return false;
  }
  std::istringstream words(text);
  std::vector<std::string> tokens;
  long count = 0;
  // A token quoted in a message: at most 24 bytes, cut at a whole character (a pasted 60 KB token must not become
  // a 60 KB line).
  auto quoted = [](const std::string& t) { return cut_end(t, 24); };
  // Why a token is no offset, in the words a user would fix it by.
  auto why_not = [&](const std::string& t) {
    if (t.size() > 1 && t[0] == '-' && std::isdigit(static_cast<unsigned char>(t[1])))
      return "'" + quoted(t) + "' is negative (offsets are bytes from the start of shared memory)";
    return "'" + quoted(t) + "' is not a number" +
           (t.find(',') != std::string::npos ? std::string(" (offsets are separated by spaces or lines, not commas)") : "");
  };
  std::string odd;  // the first token that is neither an offset nor "-": what a wrong count most likely comes from
  for (std::string tok; words >> tok; ++count) {
    if (count < kLanes) tokens.push_back(tok);
    uint64_t v = 0;
    if (odd.empty() && tok != "-" && !parse_offset(tok, &v))
      odd = "; token " + std::to_string(count + 1) + " " + why_not(tok);
  }
  if (count != kLanes) {
    *error = "expected 32 offsets, got " + std::to_string(count) + odd;
    return false;
  }
  LaneOffsets parsed{};
  for (int lane = 0; lane < kLanes; ++lane) {
    const std::string& tok = tokens[lane];
    if (tok == "-") continue;  // inactive lane
    uint64_t v = 0;
    if (!parse_offset(tok, &v)) {
      *error = "lane " + std::to_string(lane) + ": " + why_not(tok);  // numbered as the too-large message numbers
      return false;
    }
    if (v >= kMaxSmemBytes) {
      *error = "lane " + std::to_string(lane) + ": offset " + quoted(tok) + " is too large (shared memory ends at " +
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
  // An ldmatrix reads row addresses from its first 8, 16 or 32 lanes only: the others' offsets are ignored, as the
  // hardware ignores them, not checked.
  const int used = is_ldmatrix(op) ? 8 * ldmatrix_matrices(op) : kLanes;
  for (int lane = 0; lane < used; ++lane) {
    // ldmatrix is .sync.aligned: the whole warp executes it, and each of those lanes names a row. "-" (a lane that
    // did not execute) there was taken as a missing row, a count no instruction can have.
    if (is_ldmatrix(op) && !offsets[lane]) {
      *error = "lane " + std::to_string(lane) + ": '-', but " + smem_op_name(op) +
               " reads a row address from lanes 0-" + std::to_string(used - 1) + " (the whole warp executes an ldmatrix)";
      return false;
    }
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
