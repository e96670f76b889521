// Prints "WIDTH HEIGHT DISTINCT_COLOURS DOMINANT_PERCENT" for a PNG, so GUI tests can tell a drawn
// picture from a blank or single-colour one without any image tool on the machine.
// `png_stats --diff A.png B.png [TOL]` compares two pictures of one size pixel by pixel and prints
// "WIDTH HEIGHT DIFFERING_PIXELS DIFFERING_PERCENT MAX_CHANNEL_DIFF", a pixel differing where a channel of it
// differs by more than TOL (default 0); pictures of different sizes: one line on stderr, exit 1.
// `png_stats --region X Y W H FILE.png` prints the first line's numbers for that rectangle of the picture (cut to
// it), then its dominant colour as RRGGBB: what a widget noted in a window's report looks like on screen.
#include <stb_image.h>

#include <algorithm>
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <unordered_map>
#include <utility>

namespace {

unsigned char* load(const char* path, int* w, int* h) {
  int n = 0;
  unsigned char* px = stbi_load(path, w, h, &n, 4);
  if (!px) std::fprintf(stderr, "png_stats: %s: %s\n", path, stbi_failure_reason());
  return px;
}

int diff(const char* a_path, const char* b_path, int tol) {
  int aw = 0, ah = 0, bw = 0, bh = 0;
  unsigned char* a = load(a_path, &aw, &ah);
  unsigned char* b = a ? load(b_path, &bw, &bh) : nullptr;
  if (!a || !b) return 1;
  if (aw != bw || ah != bh) {
    std::fprintf(stderr, "png_stats: %s is %dx%d, %s is %dx%d\n", a_path, aw, ah, b_path, bw, bh);
    return 1;
  }
  size_t differing = 0;
  int max_diff = 0;
  for (size_t i = 0; i < size_t(aw) * ah; ++i) {
    int d = 0;
    for (int c = 0; c < 3; ++c) d = std::max(d, std::abs(int(a[4 * i + c]) - int(b[4 * i + c])));
    max_diff = std::max(max_diff, d);
    if (d > tol) ++differing;
  }
  std::printf("%d %d %zu %.3f %d\n", aw, ah, differing, 100.0 * double(differing) / (double(aw) * ah), max_diff);
  stbi_image_free(a);
  stbi_image_free(b);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 4 && argc <= 5 && std::strcmp(argv[1], "--diff") == 0)
    return diff(argv[2], argv[3], argc == 5 ? std::atoi(argv[4]) : 0);
  const bool region = argc == 7 && std::strcmp(argv[1], "--region") == 0;
  if (argc != 2 && !region) {
    std::fprintf(stderr, "usage: png_stats FILE.png | png_stats --diff A.png B.png [TOL] | png_stats --region X Y W H FILE.png\n");
    return 2;
  }
  int w = 0, h = 0;
  unsigned char* px = load(argv[argc - 1], &w, &h);
  if (!px) return 1;
  int x0 = 0, y0 = 0, x1 = w, y1 = h;
  if (region) {
    x0 = std::clamp(std::atoi(argv[2]), 0, w), y0 = std::clamp(std::atoi(argv[3]), 0, h);
    x1 = std::clamp(x0 + std::atoi(argv[4]), x0, w), y1 = std::clamp(y0 + std::atoi(argv[5]), y0, h);
    if (x1 == x0 || y1 == y0) {
      std::fprintf(stderr, "png_stats: the region is outside the %dx%d picture\n", w, h);
      stbi_image_free(px);
      return 1;
    }
  }
  std::unordered_map<uint32_t, size_t> counts;
  for (int y = y0; y < y1; ++y)
    for (int x = x0; x < x1; ++x) {
      const unsigned char* p = px + 4 * (size_t(y) * w + x);
      ++counts[uint32_t(p[0]) << 16 | uint32_t(p[1]) << 8 | p[2]];
    }
  std::pair<uint32_t, size_t> dominant{0, 0};
  for (const auto& kv : counts)
    if (kv.second > dominant.second) dominant = kv;
  const double area = double(x1 - x0) * (y1 - y0);
  std::printf("%d %d %zu %.1f", x1 - x0, y1 - y0, counts.size(), 100.0 * double(dominant.second) / area);
  if (region) std::printf(" %06x", unsigned(dominant.first));
  std::printf("\n");
  stbi_image_free(px);
  return 0;
}
