// Attaches a live session's throughput series (`gemmscope --headless --series-log FILE` on a GPU machine) to a
// capture, so that the throughput panel replays it, toggles and all, where there is no GPU:
//   capture_attach CAPTURE SERIES.csv DEVICE
// rewrites CAPTURE (atomically) with the series; DEVICE must be the capture's device name, so that a series is
// never shown beside another GPU's numbers. Host code only.
#include <cstdio>
#include <exception>
#include <string>

#include "core/capture.h"
#include "core/files.h"

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: capture_attach CAPTURE SERIES.csv DEVICE\n");
    return 2;
  }
  try {
    gs::Capture c = gs::read_capture(argv[1]);
    if (c.device.name != argv[3]) {
      std::fprintf(stderr, "capture_attach: %s was recorded on %s, not %s\n", argv[1], c.device.name.c_str(), argv[3]);
      return 1;
    }
    c.series = gs::parse_series_csv(gs::read_file(argv[2]), argv[2]);
    gs::write_capture(c, argv[1]);
    std::printf("%s: %zu points of a live series attached\n", argv[1], c.series.size());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "capture_attach: %s\n", e.what());
    return 1;
  }
  return 0;
}
