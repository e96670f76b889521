#include "app/settings.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <unistd.h>

#include "core/files.h"
#include "core/text.h"

namespace fs = std::filesystem;
using nlohmann::json;

namespace gs {
namespace {

constexpr const char* kSchema = "gemmscope-settings/1";
constexpr size_t kMaxBytes = 1 << 20;  // a settings file is a few hundred bytes; anything huge is not ours

// Typed reads that throw with the field's name, so the notice says what was wrong.
template <class T>
T get(const json& j, const char* key, T fallback) {
  if (!j.contains(key)) return fallback;
  const json& v = j.at(key);
  if constexpr (std::is_same_v<T, bool>) {
    if (!v.is_boolean()) throw std::runtime_error(std::string(key) + " is not true or false");
  } else if constexpr (std::is_same_v<T, std::string>) {
    if (!v.is_string() || v.get<std::string>().size() > 200) throw std::runtime_error(std::string(key) + " is not a short string");
  } else {
    if (!v.is_number() || !std::isfinite(v.get<double>())) throw std::runtime_error(std::string(key) + " is not a number");
  }
  return v.get<T>();
}

std::vector<float> fractions(const json& j, const char* what) {
  if (!j.is_array() || j.size() > 16) throw std::runtime_error(std::string(what) + " is not a list of fractions");
  std::vector<float> out;
  for (const json& v : j) {
    if (!v.is_number() || !std::isfinite(v.get<double>())) throw std::runtime_error(std::string(what) + " holds a non-number");
    out.push_back(v.get<float>());
  }
  return out;
}

}  // namespace

std::string settings_path() {
  if (const char* x = std::getenv("XDG_CONFIG_HOME"); x && *x) return (fs::path(x) / "gemmscope" / "settings.json").string();
  if (const char* h = std::getenv("HOME"); h && *h) return (fs::path(h) / ".config" / "gemmscope" / "settings.json").string();
  return {};
}

std::string settings_json(const ViewState& st) {
  const Arrangement& a = st.arrangement;
  json arr{{"list_w", a.list_w}, {"columns", a.columns}, {"column_w", a.column_w}, {"row_h", a.row_h},
           {"maximized", a.maximized}, {"tabs_shown", a.recent}};
  json j{{"schema", kSchema},
         {"kernel", st.kernel},
         {"dark", st.dark},
         {"zoom", st.zoom},
         {"presentation", st.presentation},
         {"presentation_zoom", st.presentation_zoom},
         {"hint_dismissed", st.hint_dismissed},
         {"layout", {{"follow", st.layout_follow}, {"op", st.layout_op}, {"documented", st.layout.show_documented},
                     {"traced", st.layout.show_traced}, {"warps", st.show_warps}}},
         {"perf_dtype", st.perf_dtype},
         {"exports", {{"dir", st.exports_dir}, {"png_scale", st.export_scale}}},
         {"arrangement", arr}};
  return j.dump(1) + "\n";
}

std::string exports_folder(const ViewState& st) {
  if (!st.exports_dir.empty()) return st.exports_dir;
  const std::string settings = settings_path();
  std::error_code ec;
  const fs::path dir = settings.empty() ? fs::current_path(ec) / "exports" : fs::path(settings).parent_path() / "exports";
  return fs::absolute(dir, ec).lexically_normal().string();
}

bool choose_exports_folder(const std::string& typed, std::string* dir, std::string* error) {
  // Spaces around a pasted path are not part of it.
  const std::string text = trim(typed);
  if (text.empty()) {
    *error = "exports folder: type a folder's path";
    return false;
  }
  fs::path p(text);
  if (text == "~" || text.rfind("~/", 0) == 0) {
    const char* home = std::getenv("HOME");
    if (!home || !*home) {
      *error = "exports folder '" + text + "': HOME is not set, so '~' means nothing";
      return false;
    }
    p = fs::path(home) / text.substr(std::min<size_t>(2, text.size()));
  }
  std::error_code ec;
  p = fs::absolute(p, ec).lexically_normal();
  if (ec) {
    *error = "exports folder '" + text + "': " + ec.message();
    return false;
  }
  std::string name = p.string();
  if (name.size() > 1 && name.back() == '/') name.pop_back();  // lexically_normal keeps the slash of "dir/"
  if (fs::exists(p, ec) && !fs::is_directory(p, ec)) {
    *error = "exports folder '" + name + "' is a file, not a folder";
    return false;
  }
  if (!fs::is_directory(p, ec) && !fs::create_directories(p, ec)) {
    *error = "exports folder '" + name + "' cannot be created: " + (ec ? ec.message() : std::string("unknown reason"));
    return false;
  }
  if (::access(name.c_str(), W_OK | X_OK) != 0) {
    *error = "exports folder '" + name + "' is not writable";
    return false;
  }
  *dir = name;
  return true;
}

bool load_settings(const std::string& path, ViewState* st, std::string* notice) {
  std::error_code ec;
  if (path.empty() || !fs::exists(path, ec)) return false;
  try {
    if (!fs::is_regular_file(path, ec)) throw std::runtime_error("not a regular file");
    if (fs::file_size(path, ec) > kMaxBytes) throw std::runtime_error("larger than 1 MB");
    const json j = json::parse(read_file(path));
    if (!j.is_object() || j.value("schema", "") != kSchema) throw std::runtime_error("not a gemmscope settings file");
    ViewState s = *st;  // all or nothing: parse into a copy
    s.kernel = get<std::string>(j, "kernel", s.kernel);
    s.dark = get<bool>(j, "dark", s.dark);
    // A zoom in 0.5-4 (NaN is not), opened within the window's range: an older file's 50-75%, from before the 80%
    // floor, at 80%.
    const auto zoom = [&](const char* key, float fallback) {
      const float z = get<float>(j, key, fallback);
      if (!(z >= 0.5f && z <= 4.0f)) throw std::runtime_error(std::string(key) + " is outside 0.5-4");
      return std::clamp(z, kMinZoom, kMaxZoom);
    };
    s.zoom = zoom("zoom", s.zoom);
    s.presentation = get<bool>(j, "presentation", s.presentation);
    s.presentation_zoom = zoom("presentation_zoom", s.presentation_zoom);
    s.hint_dismissed = get<bool>(j, "hint_dismissed", s.hint_dismissed);
    s.perf_dtype = get<std::string>(j, "perf_dtype", s.perf_dtype);
    if (j.contains("layout")) {
      const json& l = j.at("layout");
      if (!l.is_object()) throw std::runtime_error("layout is not an object");
      s.layout_follow = get<bool>(l, "follow", s.layout_follow);
      s.layout_op = get<std::string>(l, "op", s.layout_op);
      s.layout.show_documented = get<bool>(l, "documented", s.layout.show_documented);
      s.layout.show_traced = get<bool>(l, "traced", s.layout.show_traced);
      s.show_warps = get<bool>(l, "warps", s.show_warps);
    }
    if (j.contains("exports")) {
      const json& e = j.at("exports");
      if (!e.is_object()) throw std::runtime_error("exports is not an object");
      if (e.contains("dir")) {  // a path may be longer than the other strings
        const json& d = e.at("dir");
        if (!d.is_string() || d.get<std::string>().size() > 4096) throw std::runtime_error("exports.dir is not a path");
        s.exports_dir = d.get<std::string>();
        if (!s.exports_dir.empty() && !fs::path(s.exports_dir).is_absolute())
          throw std::runtime_error("exports.dir is not an absolute path");
      }
      s.export_scale = get<int>(e, "png_scale", s.export_scale);
      if (s.export_scale < 1 || s.export_scale > 4) throw std::runtime_error("exports.png_scale is outside 1-4");
    }
    if (j.contains("arrangement")) {
      const json& a = j.at("arrangement");
      if (!a.is_object()) throw std::runtime_error("arrangement is not an object");
      Arrangement arr;
      arr.list_w = get<float>(a, "list_w", arr.list_w);
      arr.maximized = get<std::string>(a, "maximized", "");
      const json& cols = a.value("columns", json::array());
      if (!cols.is_array() || cols.size() > 16) throw std::runtime_error("arrangement.columns is not a list");
      for (const json& c : cols) {
        if (!c.is_array() || c.size() > 16) throw std::runtime_error("arrangement.columns holds a non-list");
        std::vector<std::string> names;
        for (const json& n : c) {
          if (!n.is_string() || n.get<std::string>().size() > 64)
            throw std::runtime_error("arrangement.columns holds a non-name");
          names.push_back(n.get<std::string>());
        }
        arr.columns.push_back(names);
      }
      arr.column_w = fractions(a.value("column_w", json::array()), "arrangement.column_w");
      const json& rows = a.value("row_h", json::array());
      if (!rows.is_array() || rows.size() > 16) throw std::runtime_error("arrangement.row_h is not a list");
      for (const json& r : rows) arr.row_h.push_back(fractions(r, "arrangement.row_h"));
      const json& shown = a.value("tabs_shown", json::array());  // absent in settings from before tabs
      if (!shown.is_array() || shown.size() > 32) throw std::runtime_error("arrangement.tabs_shown is not a list");
      for (const json& n : shown) {
        if (!n.is_string() || n.get<std::string>().size() > 64) throw std::runtime_error("arrangement.tabs_shown holds a non-name");
        arr.recent.push_back(n.get<std::string>());
      }
      s.arrangement = arr;  // reconcile() against the views table makes it usable
    }
    *st = s;
  } catch (const std::exception& e) {
    // nlohmann's messages begin "[json.exception.parse_error.101] ": the words after it say what was wrong.
    std::string why = e.what();
    if (why.rfind("[json.exception.", 0) == 0 && why.find("] ") != std::string::npos) why.erase(0, why.find("] ") + 2);
    // The outcome first: where the bar cuts the line (a laptop's 1366 pixels), it keeps what happened.
    *notice = "settings reset to the defaults: " + path + " could not be used (" + why + ")";
  }
  return true;
}

bool save_settings(const std::string& path, const ViewState& st, std::string* error) {
  try {
    std::error_code ec;
    fs::create_directories(fs::path(path).parent_path(), ec);
    write_file_atomic(path, settings_json(st));
    return true;
  } catch (const std::exception& e) {
    *error = e.what();
    return false;
  }
}

}  // namespace gs
