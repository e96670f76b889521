#include "app/settings.h"

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "core/files.h"

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
           {"maximized", a.maximized}};
  json j{{"schema", kSchema},
         {"kernel", st.kernel},
         {"dark", st.dark},
         {"zoom", st.zoom},
         {"presentation", st.presentation},
         {"hint_dismissed", st.hint_dismissed},
         {"layout", {{"follow", st.layout_follow}, {"op", st.layout_op}, {"documented", st.layout.show_documented},
                     {"traced", st.layout.show_traced}, {"warps", st.show_warps}}},
         {"perf_dtype", st.perf_dtype},
         {"arrangement", arr}};
  return j.dump(1) + "\n";
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
    s.zoom = get<float>(j, "zoom", s.zoom);
    if (s.zoom < 0.5f || s.zoom > 4.0f) throw std::runtime_error("zoom is outside 0.5-4");
    s.presentation = get<bool>(j, "presentation", s.presentation);
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
      s.arrangement = arr;  // reconcile() against the views table makes it usable
    }
    *st = s;
  } catch (const std::exception& e) {
    *notice = "settings file " + path + " could not be used (" + e.what() + "): defaults instead";
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
