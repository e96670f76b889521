// libFuzzer target: the capture reader (issue 16, item 2). Whatever the bytes, parse_capture either returns a capture
// or throws CaptureError with one line of at most 200 characters; a capture it returns is written back and read
// again without complaint (what `record` writes, every gemmscope reads).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "core/capture.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  gs::Capture c;
  try {
    c = gs::parse_capture(text, "fuzz.json");
  } catch (const gs::CaptureError& e) {
    const std::string m = e.what();
    if (m.size() > 200 || m.find('\n') != std::string::npos || m.rfind("fuzz.json: ", 0) != 0) {
      std::fprintf(stderr, "bad message (%zu characters): %s\n", m.size(), m.c_str());
      std::abort();
    }
    return 0;
  }
  try {
    gs::parse_capture(gs::capture_to_json(c), "again.json");
  } catch (const gs::CaptureError& e) {
    std::fprintf(stderr, "a capture the reader took does not read back: %s\n", e.what());
    std::abort();
  }
  return 0;
}
