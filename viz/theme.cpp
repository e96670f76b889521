// Themes and the lane palette. Both themes keep the same semantic slots so a view never branches
// on the theme except through these colours.
#include <algorithm>
#include <cmath>

#include "viz/views.h"

namespace gs {
namespace {

// HSL to sRGB; h in degrees, s and l in [0, 1].
Color hsl(float h, float s, float l) {
  float c = (1 - std::fabs(2 * l - 1)) * s;
  float hp = std::fmod(h, 360.0f) / 60.0f;
  float x = c * (1 - std::fabs(std::fmod(hp, 2.0f) - 1));
  float r = 0, g = 0, b = 0;
  if (hp < 1) r = c, g = x;
  else if (hp < 2) r = x, g = c;
  else if (hp < 3) g = c, b = x;
  else if (hp < 4) g = x, b = c;
  else if (hp < 5) r = x, b = c;
  else r = c, b = x;
  float m = l - c / 2;
  auto u8 = [&](float v) { return uint8_t(std::lround(std::clamp(v + m, 0.0f, 1.0f) * 255)); };
  return {u8(r), u8(g), u8(b), 255};
}

float linear(uint8_t v) {
  float c = v / 255.0f;
  return c <= 0.04045f ? c / 12.92f : std::pow((c + 0.055f) / 1.055f, 2.4f);
}

}  // namespace

const Theme& Theme::Dark() {
  static const Theme t{true,
                       Color::rgb(0x16181d),   // bg
                       Color::rgb(0x21252b),   // panel
                       Color::rgb(0xe6e8eb),   // text
                       Color::rgb(0x9aa1ab),   // text_dim
                       Color::rgb(0x343a43),   // grid
                       Color::rgb(0x4c9aff),   // accent
                       Color::rgb(0x4cc38a),   // good
                       Color::rgb(0xf0b43c),   // warn
                       Color::rgb(0xff5c5c)};  // bad
  return t;
}

const Theme& Theme::Light() {
  static const Theme t{false,
                       Color::rgb(0xffffff),
                       Color::rgb(0xf3f4f6),
                       Color::rgb(0x1c1f24),
                       Color::rgb(0x5d6570),
                       Color::rgb(0xd9dde2),
                       Color::rgb(0x1f6feb),
                       Color::rgb(0x1a7f37),
                       Color::rgb(0xb26b00),
                       Color::rgb(0xd1242f)};
  return t;
}

const Theme* Theme::ByName(const std::string& name) {
  if (name == "dark") return &Dark();
  if (name == "light") return &Light();
  return nullptr;
}

Color lane_color(int lane, const Theme& t) {
  // Eight hues, one per quad, ordered so neighbouring quads never share a colour family; hues are
  // spaced more tightly where the eye separates them well (reds to yellows) than in the greens.
  static const float kHue[8] = {352, 28, 50, 128, 174, 203, 238, 284};
  // Within a quad, lane 4q is lightest: four steps far enough apart to tell lanes apart, all
  // mid-range so black or white labels read on them; the dark theme sits a little lower.
  static const float kLightDark[4] = {0.74f, 0.62f, 0.50f, 0.39f};
  static const float kLightLight[4] = {0.78f, 0.65f, 0.52f, 0.40f};
  int l = ((lane % 32) + 32) % 32;
  int quad = l / 4, step = l % 4;
  // Yellow and green look louder than blue at equal HSL saturation; temper them.
  float sat = (quad == 2 || quad == 3) ? 0.62f : 0.72f;
  return hsl(kHue[quad], sat, (t.dark ? kLightDark : kLightLight)[step]);
}

Color series_color(size_t i, const Theme& t) {
  // Eight hues in an order that puts far-apart hues next to each other, then the same hues again at a
  // clearly different lightness: 16 colours, none a repeat, each readable on the theme's background. On the light
  // theme the second eight are darker, not lighter: lighter, a ladder's top rungs (its 9th to 16th series) drew
  // at 1.5-2.4:1 on white, the faintest lines of the plot for the rungs a lecture ends on; now each is 3.3:1 or more.
  static const float kHue[8] = {212, 28, 128, 340, 268, 186, 52, 18};
  static const float kSat[8] = {0.75f, 0.85f, 0.55f, 0.70f, 0.55f, 0.65f, 0.75f, 0.45f};
  const size_t k = i % 16, h = k % 8;
  const bool second = k >= 8;
  float light = t.dark ? (second ? 0.78f : 0.60f) : (second ? 0.27f : 0.40f);
  if (h == 6 && !t.dark && !second) light = 0.34f;  // yellow: darker on white, where it is the faintest hue
  if (h == 7) light = t.dark ? (second ? 0.70f : 0.45f) : (second ? 0.20f : 0.32f);  // brown: darker than the orange
  return hsl(kHue[h], kSat[h], light);
}

Color text_on(Color bg) {
  // WCAG relative luminance; pick the side with the larger contrast ratio.
  float y = 0.2126f * linear(bg.r) + 0.7152f * linear(bg.g) + 0.0722f * linear(bg.b);
  float vs_black = (y + 0.05f) / 0.05f, vs_white = 1.05f / (y + 0.05f);
  return vs_black >= vs_white ? Color{0, 0, 0, 255} : Color{255, 255, 255, 255};
}

}  // namespace gs
