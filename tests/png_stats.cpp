// Prints "WIDTH HEIGHT DISTINCT_COLOURS DOMINANT_PERCENT" for a PNG, so GUI tests can tell a drawn
// picture from a blank or single-colour one without any image tool on the machine.
#include <stb_image.h>

#include <algorithm>
#include <cstdio>
#include <cstdint>
#include <unordered_map>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: png_stats FILE.png\n");
    return 2;
  }
  int w = 0, h = 0, n = 0;
  unsigned char* px = stbi_load(argv[1], &w, &h, &n, 4);
  if (!px) {
    std::fprintf(stderr, "png_stats: %s: %s\n", argv[1], stbi_failure_reason());
    return 1;
  }
  std::unordered_map<uint32_t, size_t> counts;
  for (size_t i = 0; i < size_t(w) * h; ++i) {
    const unsigned char* p = px + 4 * i;
    ++counts[uint32_t(p[0]) << 16 | uint32_t(p[1]) << 8 | p[2]];
  }
  size_t dominant = 0;
  for (const auto& kv : counts) dominant = std::max(dominant, kv.second);
  std::printf("%d %d %zu %.1f\n", w, h, counts.size(), 100.0 * double(dominant) / (double(w) * h));
  stbi_image_free(px);
  return 0;
}
