#include "app/worker_protocol.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <unistd.h>

#include <nlohmann/json.hpp>

namespace gs::wire {

namespace {
constexpr size_t kHeader = 8;
}

std::string frame(const std::string& type, const std::string& body) {
  std::string out = type.substr(0, 4);
  out.resize(4, ' ');
  const auto n = static_cast<uint32_t>(body.size());
  for (int i = 0; i < 4; ++i) out += static_cast<char>((n >> (8 * i)) & 0xFF);
  return out + body;
}

bool write_all(int fd, const std::string& bytes) {
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t w = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    done += size_t(w);
  }
  return true;
}

bool Reader::feed(const char* data, size_t n, std::string* error) {
  buf_.append(data, n);
  size_t pos = 0;
  while (buf_.size() - pos >= kHeader) {
    const char* h = buf_.data() + pos;
    for (int i = 0; i < 4; ++i) {
      if (h[i] < 'a' || h[i] > 'z') {
        *error = "not a worker message (bad type bytes)";
        return false;
      }
    }
    uint32_t len = 0;
    for (int i = 0; i < 4; ++i) len |= uint32_t(static_cast<unsigned char>(h[4 + i])) << (8 * i);
    if (len > max_body_) {
      *error = "a message of " + std::to_string(len) + " bytes (the limit is " + std::to_string(max_body_) + ")";
      return false;
    }
    if (buf_.size() - pos < kHeader + len) break;
    ready_.push_back({std::string(h, 4), buf_.substr(pos + kHeader, len)});
    pos += kHeader + len;
  }
  buf_.erase(0, pos);
  return true;
}

bool Reader::next(Message* m) {
  if (ready_.empty()) return false;
  *m = std::move(ready_.front());
  ready_.pop_front();
  return true;
}

bool read_message(int fd, Reader* reader, Message* m, std::string* error) {
  error->clear();
  char chunk[1 << 16];
  while (!reader->next(m)) {
    const ssize_t r = ::read(fd, chunk, sizeof chunk);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) {
      *error = std::string("read: ") + std::strerror(errno);
      return false;
    }
    if (r == 0) {
      if (reader->buffered() > 0) *error = "the stream ended inside a message";
      return false;
    }
    if (!reader->feed(chunk, size_t(r), error)) return false;
  }
  return true;
}

std::string encode_state(const StateUpdate& u) {
  nlohmann::json points = nlohmann::json::array(), switches = nlohmann::json::array();
  for (const LivePoint& p : u.points) points.push_back({p.t, p.tflops, p.cublas_tflops, p.sm_mhz});
  for (const LiveSnapshot::Switch& s : u.switches) switches.push_back({s.t, s.kernel});
  const DeviceState& d = u.device;
  const nlohmann::json device{{"ok", d.ok}, {"error", d.error}, {"name", d.name}, {"sm_mhz", d.sm_mhz},
                              {"mem_mhz", d.mem_mhz}, {"sm_max_mhz", d.sm_max_mhz}, {"power_w", d.power_w},
                              {"power_limit_w", d.power_limit_w}, {"temperature_c", d.temperature_c},
                              {"memory_total", d.memory_total}, {"memory_free", d.memory_free}, {"reasons", d.reasons}};
  const nlohmann::json j{{"status", u.status}, {"error", u.error}, {"series_kernel", u.series_kernel},
                         {"device", device}, {"points", points}, {"switches", switches}};
  // Names come from the registry and NVML; replace, never throw, on bytes that are not UTF-8.
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

bool decode_state(const std::string& body, StateUpdate* out, std::string* error) {
  const nlohmann::json j = nlohmann::json::parse(body, nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    *error = "a state message that is not a JSON object";
    return false;
  }
  auto text = [](const nlohmann::json& o, const char* key) {
    const auto it = o.find(key);
    if (it == o.end() || !it->is_string()) return std::string();
    std::string s = it->get<std::string>();
    if (s.size() > kMaxText) s.resize(kMaxText);
    return s;
  };
  auto number = [](const nlohmann::json& o, const char* key, double fallback) {
    const auto it = o.find(key);
    return it != o.end() && it->is_number() ? it->get<double>() : fallback;
  };
  out->status = text(j, "status");
  out->error = text(j, "error");
  out->series_kernel = text(j, "series_kernel");
  if (const auto d = j.find("device"); d != j.end() && d->is_object()) {
    DeviceState& s = out->device;
    s.ok = d->value("ok", false) == true;
    s.error = text(*d, "error");
    s.name = text(*d, "name");
    s.sm_mhz = int(number(*d, "sm_mhz", 0));
    s.mem_mhz = int(number(*d, "mem_mhz", 0));
    s.sm_max_mhz = int(number(*d, "sm_max_mhz", 0));
    s.power_w = number(*d, "power_w", 0);
    s.power_limit_w = number(*d, "power_limit_w", 0);
    s.temperature_c = int(number(*d, "temperature_c", -1));
    s.memory_total = uint64_t(std::max(0.0, number(*d, "memory_total", 0)));
    s.memory_free = uint64_t(std::max(0.0, number(*d, "memory_free", 0)));
    s.reasons = uint64_t(std::max(0.0, number(*d, "reasons", 0)));
  }
  out->points.clear();
  out->switches.clear();
  if (const auto p = j.find("points"); p != j.end() && p->is_array()) {
    for (const nlohmann::json& e : *p) {
      if (!e.is_array() || e.size() != 4 || !e[0].is_number() || !e[1].is_number() || !e[2].is_number() ||
          !e[3].is_number()) {
        *error = "a live point that is not [t, tflops, cublas_tflops, sm_mhz]";
        return false;
      }
      out->points.push_back({e[0].get<double>(), e[1].get<double>(), e[2].get<double>(), int(e[3].get<double>())});
    }
  }
  if (const auto s = j.find("switches"); s != j.end() && s->is_array()) {
    for (const nlohmann::json& e : *s) {
      if (!e.is_array() || e.size() != 2 || !e[0].is_number() || !e[1].is_string()) {
        *error = "a series switch that is not [t, kernel]";
        return false;
      }
      std::string k = e[1].get<std::string>();
      if (k.size() > kMaxText) k.resize(kMaxText);
      out->switches.push_back({e[0].get<double>(), k});
    }
  }
  return true;
}

}  // namespace gs::wire
