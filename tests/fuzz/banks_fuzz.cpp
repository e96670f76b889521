// libFuzzer target: `gemmscope banks`' input parser and the bank model behind it (issue 16, item 2). The first byte
// picks the width and instruction; the rest is stdin. Parsed input gives W >= I >= 0 and C = W - I; refused input a
// one-line message of bounded length.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>

#include "core/banks.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  static const gs::SmemOp kOps[] = {gs::SmemOp::Lds, gs::SmemOp::Sts, gs::SmemOp::LdmatrixX1, gs::SmemOp::LdmatrixX2,
                                    gs::SmemOp::LdmatrixX4};
  static const int kWidths[] = {4, 8, 16};
  const gs::SmemOp op = kOps[data[0] % 5];
  const int width = kWidths[(data[0] / 5) % 3];
  std::istringstream in(std::string(reinterpret_cast<const char*>(data + 1), size - 1));
  gs::LaneOffsets offsets{};
  std::string error;
  if (!gs::parse_lane_offsets(in, width, op, &offsets, &error)) {
    if (error.empty() || error.size() > 200 || error.find('\n') != std::string::npos) {
      std::fprintf(stderr, "bad message (%zu characters): %s\n", error.size(), error.c_str());
      std::abort();
    }
    return 0;
  }
  const gs::BankReport r = gs::bank_report(offsets, width, op);
  if (r.ideal < 0 || r.wavefronts < r.ideal || r.conflicts != r.wavefronts - r.ideal ||
      r.wavefront_lanes.size() != size_t(r.wavefronts)) {
    std::fprintf(stderr, "inconsistent report: W=%d I=%d C=%d\n", r.wavefronts, r.ideal, r.conflicts);
    std::abort();
  }
  return 0;
}
