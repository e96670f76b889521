#include "core/files.h"
#include "core/text.h"

#include <atomic>
#include <cerrno>
#include <csignal>
#include <pthread.h>
#include <signal.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

namespace gs {

namespace {

std::string mb(uint64_t bytes) { return std::to_string((bytes + (1u << 20) - 1) >> 20) + " MB"; }

// The temporary being written, for the signal handler: removed if the process is interrupted (SIGINT,
// SIGTERM, SIGHUP) before it is renamed into place. Fixed buffers: a handler may not allocate.
char g_tmp[4096];
std::atomic<bool> g_tmp_live{false};
char g_target[512];  // the file being written, escaped and cut, for the handler's line
char g_who[128];     // say_when_interrupted's "gemmscope shot"; "" = say nothing

void put(const char* s) {
  for (size_t n = std::strlen(s); n > 0;) {
    const ssize_t w = ::write(2, s, n);
    if (w <= 0) return;
    s += w, n -= size_t(w);
  }
}

extern "C" void remove_tmp_and_die(int sig) {
  const bool writing = g_tmp_live.load();
  if (writing) ::unlink(g_tmp);
  if (g_who[0]) {  // one line, from pieces written as they are (nothing here may allocate)
    put(g_who);
    put(sig == SIGINT ? ": interrupted (SIGINT)" : sig == SIGTERM ? ": interrupted (SIGTERM)" : ": interrupted (SIGHUP)");
    if (writing) {
      put(" while writing ");
      put(g_target);
      put(": left as it was, no temporary behind");
    }
    put("\n");
  }
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

constexpr int kSignals[3] = {SIGINT, SIGTERM, SIGHUP};

// Installs remove_tmp_and_die for `sig` where nothing else handles it (the default action); an ignored signal stays
// ignored (a job run with nohup or in the background), and a handler of the program's own (the deck export's,
// which stops its loop and removes its folder) stays in charge. True if installed.
bool take_default(int sig) {
  struct sigaction now {};
  if (::sigaction(sig, nullptr, &now) != 0 || (now.sa_flags & SA_SIGINFO) || now.sa_handler != SIG_DFL) return false;
  struct sigaction act {};
  act.sa_handler = remove_tmp_and_die;
  sigemptyset(&act.sa_mask);
  return ::sigaction(sig, &act, nullptr) == 0;
}

// Handlers installed for the length of one write where the default action would leave the temporary behind.
class TmpGuard {
 public:
  TmpGuard(const std::string& tmp, const std::string& target) {
    std::snprintf(g_tmp, sizeof g_tmp, "%s", tmp.c_str());
    const std::string shown = cut_start(escape_line(target), sizeof g_target - 4);  // one line whatever the name holds
    std::snprintf(g_target, sizeof g_target, "%s", shown.c_str());
    g_tmp_live = true;
    for (int i = 0; i < 3; ++i) installed_[i] = take_default(kSignals[i]);
    // A file-size limit (ulimit -f) then makes write() fail with EFBIG instead of killing the process.
    old_xfsz_ = std::signal(SIGXFSZ, SIG_IGN);
  }
  ~TmpGuard() {
    for (int i = 0; i < 3; ++i)
      if (installed_[i]) std::signal(kSignals[i], SIG_DFL);
    std::signal(SIGXFSZ, old_xfsz_);
    g_tmp_live = false;
  }
  TmpGuard(const TmpGuard&) = delete;
  TmpGuard& operator=(const TmpGuard&) = delete;

 private:
  bool installed_[3] = {};
  void (*old_xfsz_)(int) = nullptr;
};

}  // namespace

std::string read_file(const std::string& path, uint64_t max_bytes) {
  // O_NONBLOCK: opening a FIFO with no writer must not wait forever; it is refused below as not a file.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) throw std::runtime_error(path + ": cannot open: " + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    throw std::runtime_error(path + ": not a regular file");
  }
  if (uint64_t(st.st_size) > max_bytes) {
    ::close(fd);
    throw std::runtime_error(path + ": " + mb(uint64_t(st.st_size)) + ", larger than the " + mb(max_bytes) +
                             " gemmscope reads");
  }
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  std::string out;
  out.reserve(size_t(st.st_size));
  char buf[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n == 0) break;
    if (n < 0) {
      if (errno == EINTR) continue;
      const int err = errno;
      ::close(fd);
      throw std::runtime_error(path + ": read failed: " + std::strerror(err));
    }
    if (out.size() + size_t(n) > max_bytes) {  // the file grew while being read
      ::close(fd);
      throw std::runtime_error(path + ": larger than the " + mb(max_bytes) + " gemmscope reads");
    }
    out.append(buf, size_t(n));
  }
  ::close(fd);
  return out;
}

bool is_gzip(const std::string& bytes) {
  return bytes.size() >= 2 && uint8_t(bytes[0]) == 0x1f && uint8_t(bytes[1]) == 0x8b;
}

std::string gunzip(const std::string& bytes, uint64_t max_bytes) {
  z_stream z{};
  if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK) throw std::runtime_error("zlib would not start");
  struct End {
    z_stream* z;
    ~End() { inflateEnd(z); }
  } end{&z};
  std::string out;
  char buf[1 << 16];
  size_t at = 0;  // bytes of the input consumed by the members before this one
  for (;;) {
    // zlib's counts are 32-bit; a capture's file is far smaller (read_file's limit), so one call takes it all.
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data() + at));
    z.avail_in = uInt(bytes.size() - at);
    int rc = Z_OK;
    while (rc != Z_STREAM_END) {
      z.next_out = reinterpret_cast<Bytef*>(buf);
      z.avail_out = sizeof buf;
      rc = inflate(&z, Z_NO_FLUSH);
      if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR)
        throw std::runtime_error(std::string("damaged gzip data (") + (z.msg ? z.msg : "zlib error " + std::to_string(rc)) + ")");
      const size_t got = sizeof buf - z.avail_out;
      if (out.size() + got > max_bytes)
        throw std::runtime_error("gzip data inflating to more than the " + mb(max_bytes) + " gemmscope reads");
      out.append(buf, got);
      if (rc == Z_BUF_ERROR && z.avail_in == 0 && got == 0)
        throw std::runtime_error("gzip data cut short (the file ends inside the stream)");
    }
    at = bytes.size() - z.avail_in;
    if (at == bytes.size()) return out;
    // `cat a.gz b.gz` is one valid gzip file: inflate the next member; anything else after the end is damage.
    if (!is_gzip(bytes.substr(at, 2)))
      throw std::runtime_error(std::to_string(bytes.size() - at) + " bytes after the end of the gzip data");
    if (inflateReset(&z) != Z_OK) throw std::runtime_error("zlib would not restart");
  }
}

std::string gzip(const std::string& bytes) {
  z_stream z{};
  if (deflateInit2(&z, Z_BEST_COMPRESSION, Z_DEFLATED, 16 + MAX_WBITS, 9, Z_DEFAULT_STRATEGY) != Z_OK)
    throw std::runtime_error("zlib would not start");
  std::string out(deflateBound(&z, uLong(bytes.size())), '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
  z.avail_in = uInt(bytes.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = uInt(out.size());
  const int rc = deflate(&z, Z_FINISH);
  out.resize(out.size() - z.avail_out);
  deflateEnd(&z);
  if (rc != Z_STREAM_END) throw std::runtime_error("zlib could not compress");
  return out;
}

namespace {

// What `given` names for a write: the path written (a symbolic link followed), whether something is there and
// what. Throws where write_file_atomic would refuse: not a regular file, not writable, no such folder.
std::string write_target(const std::string& given, struct stat* st, bool* exists) {
  std::string path = given;
  *exists = ::lstat(path.c_str(), st) == 0;
  if (*exists && S_ISLNK(st->st_mode)) {
    if (char* real = ::realpath(given.c_str(), nullptr)) {
      path = real;
      std::free(real);
      *exists = ::stat(path.c_str(), st) == 0;
    } else {  // a link to nothing yet: create what it names
      char to[4096];
      const ssize_t n = ::readlink(given.c_str(), to, sizeof to - 1);
      if (n <= 0) throw std::runtime_error(given + ": a symbolic link that cannot be followed: " + std::strerror(errno));
      to[n] = '\0';
      const size_t slash = given.rfind('/');
      path = to[0] == '/' || slash == std::string::npos ? std::string(to) : given.substr(0, slash + 1) + to;
      if (::lstat(path.c_str(), st) == 0)  // a link to a link to nothing, or a loop
        throw std::runtime_error(given + ": a symbolic link that cannot be followed: " + std::strerror(ELOOP));
      *exists = false;
    }
  }
  if (*exists && !S_ISREG(st->st_mode))
    throw std::runtime_error(given + (S_ISDIR(st->st_mode) ? ": is a folder" : ": not a regular file (a device, a pipe or a socket)") +
                             ", left as it was");
  if (*exists && ::access(path.c_str(), W_OK) != 0)
    throw std::runtime_error(given + ": not writable (" + std::strerror(errno) + "), left as it was");
  const size_t slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
  struct stat d {};
  if (::stat(dir.c_str(), &d) != 0 || !S_ISDIR(d.st_mode))
    throw std::runtime_error(given + ": the folder " + dir + " does not exist");
  if (::access(dir.c_str(), W_OK) != 0)
    throw std::runtime_error(given + ": cannot write in the folder " + dir + " (" + std::strerror(errno) + ")");
  return path;
}

}  // namespace

void check_writable(const std::string& path) {
  struct stat st {};
  bool exists = false;
  write_target(path, &st, &exists);
}

void write_file_atomic(const std::string& given, const std::string& bytes) {
  // What the name stands for: a symbolic link is written through (its target replaced, the link kept); what is
  // not a regular file (a device, a FIFO, a folder) or not writable is refused, never replaced by a file.
  struct stat st {};
  bool exists = false;
  const std::string path = write_target(given, &st, &exists);
  // The temporary lives beside the target so that rename() stays on one file system. Its name is
  // unpredictable and created exclusively (mkstemp: O_CREAT | O_EXCL, so a planted file or symlink is never
  // followed), and short enough that a target name of the legal 255 bytes still leaves room for it.
  const size_t slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "" : path.substr(0, slash + 1);
  const std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  std::string tmp = dir + "." + base.substr(0, 200) + ".tmp.XXXXXX";
  // The interrupting signals wait while the temporary is created and its clean-up handler installed: one that
  // came in between would otherwise leave the temporary behind. Held back, it arrives once the handler is in.
  sigset_t held, before;
  sigemptyset(&held);
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&held, sig);
  pthread_sigmask(SIG_BLOCK, &held, &before);
  const int fd = ::mkstemp(tmp.data());
  if (fd < 0) {
    const int err = errno;
    pthread_sigmask(SIG_SETMASK, &before, nullptr);
    throw std::runtime_error(given + ": cannot create a temporary file beside it: " + std::strerror(err));
  }
  TmpGuard guard(tmp, given);
  pthread_sigmask(SIG_SETMASK, &before, nullptr);
  // mkstemp creates 0600; a file replaced keeps its mode, a new one gets what a plain create would (0666 less the
  // umask).
  if (exists) {
    ::fchmod(fd, st.st_mode & 07777);
  } else {
    const mode_t mask = ::umask(0);
    ::umask(mask);
    ::fchmod(fd, 0666 & ~mask);
  }
  size_t done = 0;
  int err = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      err = errno;
      break;
    }
    done += size_t(n);
  }
  if (err == 0 && ::fsync(fd) != 0) err = errno;
  if (::close(fd) != 0 && err == 0) err = errno;
  if (err != 0) {
    ::unlink(tmp.c_str());
    throw std::runtime_error(given + ": write failed: " + std::strerror(err));
  }
  // The signals wait again while the rename happens and the handler learns of it: one that came just after the
  // rename had said "left as it was" of a file already replaced. Held back, it says only "interrupted".
  pthread_sigmask(SIG_BLOCK, &held, &before);
  const bool renamed = std::rename(tmp.c_str(), path.c_str()) == 0;
  const int rerr = errno;
  if (renamed) g_tmp_live = false;
  pthread_sigmask(SIG_SETMASK, &before, nullptr);
  if (!renamed) {
    ::unlink(tmp.c_str());
    throw std::runtime_error(given + ": cannot rename into place: " + std::strerror(rerr));
  }
}

void say_when_interrupted(const std::string& who) {
  std::snprintf(g_who, sizeof g_who, "%s", who.c_str());
  for (const int sig : kSignals) take_default(sig);
}

}  // namespace gs
