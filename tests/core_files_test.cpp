// Reading and writing whole files (core/files.h): what is refused, what is never left behind.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <csignal>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/files.h"

namespace gs {
namespace {

namespace fs = std::filesystem;

class Files : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("gs_files_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string at(const std::string& name) const { return (dir_ / name).string(); }
  size_t entries() const { return size_t(std::distance(fs::directory_iterator(dir_), fs::directory_iterator{})); }
  fs::path dir_;
};

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

TEST_F(Files, ReadRefusesWhatIsNotARegularFileWithoutWaiting) {
  ASSERT_EQ(::mkfifo(at("fifo").c_str(), 0600), 0);  // no writer: opening it must not block
  EXPECT_EQ(error_of([&] { read_file(at("fifo")); }), at("fifo") + ": not a regular file");
  EXPECT_EQ(error_of([] { read_file("/dev/zero"); }), "/dev/zero: not a regular file");
  EXPECT_EQ(error_of([&] { read_file(dir_.string()); }), dir_.string() + ": not a regular file");
  EXPECT_NE(error_of([&] { read_file(at("missing")); }).find(": cannot open: "), std::string::npos);
}

TEST_F(Files, ReadRefusesAFileLargerThanTheLimit) {
  std::ofstream(at("big")) << std::string(3 << 20, 'x');
  EXPECT_EQ(error_of([&] { read_file(at("big"), 2 << 20); }), at("big") + ": 3 MB, larger than the 2 MB gemmscope reads");
  EXPECT_EQ(read_file(at("big")).size(), size_t(3 << 20));
}

TEST(Gzip, InflatesWhatItDeflatedAndCatIsOneFile) {
  std::string text;
  for (int i = 0; i < 20000; ++i) text += "{\"lane\": " + std::to_string(i % 32) + "},\n";
  const std::string gz = gzip(text);
  EXPECT_TRUE(is_gzip(gz));
  EXPECT_FALSE(is_gzip(text));
  EXPECT_LT(gz.size(), text.size() / 5);
  EXPECT_EQ(gunzip(gz, 64 << 20), text);
  EXPECT_EQ(gunzip(gz + gzip("tail"), 64 << 20), text + "tail") << "two members, as `cat a.gz b.gz` writes";
  EXPECT_EQ(gunzip(gzip(""), 1), "");
}

TEST(Gzip, DamageIsOneLineAndABombStopsAtTheLimit) {
  const std::string gz = gzip(std::string(5 << 20, 'x'));  // 5 MB of one letter: about 5 KB
  ASSERT_LT(gz.size(), 10000u);
  EXPECT_EQ(error_of([&] { gunzip(gz, 4 << 20); }), "gzip data inflating to more than the 4 MB gemmscope reads");
  EXPECT_EQ(error_of([&] { gunzip(gz.substr(0, gz.size() / 2), 64 << 20); }),
            "gzip data cut short (the file ends inside the stream)");
  EXPECT_EQ(error_of([&] { gunzip(gz + "junk", 64 << 20); }), "4 bytes after the end of the gzip data");
  std::string flipped = gz;
  flipped[gz.size() - 6] ^= 0x55;  // inside the CRC-32 of the trailer
  EXPECT_EQ(error_of([&] { gunzip(flipped, 64 << 20); }).rfind("damaged gzip data (", 0), 0u);
  EXPECT_EQ(error_of([&] { gunzip(std::string("\x1f\x8b"), 64 << 20); }),
            "gzip data cut short (the file ends inside the stream)");
}

TEST_F(Files, WriteReplacesAtomicallyAndLeavesNothingElse) {
  write_file_atomic(at("out.json"), "first");
  write_file_atomic(at("out.json"), "second");
  EXPECT_EQ(read_file(at("out.json")), "second");
  EXPECT_EQ(entries(), 1u);  // no temporary left beside it
  struct stat st {};
  ASSERT_EQ(::stat(at("out.json").c_str(), &st), 0);
  const mode_t mask = ::umask(0);
  ::umask(mask);
  EXPECT_EQ(st.st_mode & 0777, 0666 & ~mask);  // what a plain create gives, not mkstemp's 0600
}

TEST_F(Files, WriteNeverFollowsAPlantedSymlink) {
  // The names an attacker could guess (the old scheme: NAME.tmp.PID) point at a file that must stay intact.
  std::ofstream(at("victim")) << "keep";
  fs::create_symlink(at("victim"), at("out.svg.tmp." + std::to_string(::getpid())));
  write_file_atomic(at("out.svg"), "picture");
  EXPECT_EQ(read_file(at("victim")), "keep");
  EXPECT_EQ(read_file(at("out.svg")), "picture");
}

TEST_F(Files, ALegalLongNameIsWrittenAndAFailedWriteLeavesNoTemporary) {
  const std::string name(250, 'n');
  write_file_atomic(at(name + ".svg"), "x");  // 254 bytes: the temporary's name must not grow past 255
  EXPECT_EQ(read_file(at(name + ".svg")), "x");
  const std::string missing = at("no/such/folder/out.svg");
  EXPECT_NE(error_of([&] { write_file_atomic(missing, "x"); }).find("does not exist"), std::string::npos);
  fs::create_directories(dir_ / "target_is_a_folder");
  EXPECT_NE(error_of([&] { write_file_atomic(at("target_is_a_folder"), "x"); }).find("is a folder"), std::string::npos);
  EXPECT_EQ(entries(), 2u);  // the long file and the folder: no temporary from either failure
}

TEST_F(Files, ALinkIsWrittenThroughAndWhatIsNotAFileIsLeftAlone) {
  // A symbolic link keeps pointing where it did; its target gets the bytes (and keeps its mode).
  std::ofstream(at("target.csv")) << "old";
  ::chmod(at("target.csv").c_str(), 0640);
  fs::create_symlink(at("target.csv"), at("link.csv"));
  write_file_atomic(at("link.csv"), "new");
  EXPECT_TRUE(fs::is_symlink(at("link.csv")));
  EXPECT_EQ(read_file(at("target.csv")), "new");
  struct stat st {};
  ASSERT_EQ(::stat(at("target.csv").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0640u);
  // A link to a file not there yet creates it, relative to the link's folder.
  fs::create_symlink("made.csv", at("ahead.csv"));
  write_file_atomic(at("ahead.csv"), "made");
  EXPECT_TRUE(fs::is_symlink(at("ahead.csv")));
  EXPECT_EQ(read_file(at("made.csv")), "made");
  // A FIFO and a device stay what they are (before, a rename replaced them with a file).
  ASSERT_EQ(::mkfifo(at("pipe").c_str(), 0600), 0);
  EXPECT_NE(error_of([&] { write_file_atomic(at("pipe"), "x"); }).find("not a regular file"), std::string::npos);
  ASSERT_EQ(::lstat(at("pipe").c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));
  fs::create_symlink("/dev/null", at("null.csv"));
  EXPECT_NE(error_of([&] { write_file_atomic(at("null.csv"), "x"); }).find("not a regular file"), std::string::npos);
  ASSERT_EQ(::stat("/dev/null", &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode));
  // check_writable says the same before any work is done.
  EXPECT_NE(error_of([&] { check_writable(at("pipe")); }).find("not a regular file"), std::string::npos);
  EXPECT_NE(error_of([&] { check_writable(at("no/such/out.json")); }).find("does not exist"), std::string::npos);
  EXPECT_EQ(error_of([&] { check_writable(at("fresh.json")); }), "");
  EXPECT_FALSE(fs::exists(at("fresh.json")));
}

TEST_F(Files, AFileTheUserMayNotWriteIsLeftAlone) {
  std::ofstream(at("locked.csv")) << "keep";
  ::chmod(at("locked.csv").c_str(), 0440);
  // Root may write any file: as root, the write is tried by a child that has become nobody (uid 65534) in a folder
  // anyone may write in, so that only the file's own mode stands in the way.
  ::chmod(dir_.c_str(), 0777);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    if (::geteuid() == 0 && ::setuid(65534) != 0) ::_exit(3);
    const std::string e = error_of([&] { write_file_atomic(at("locked.csv"), "x"); });
    ::_exit(e.find("not writable") != std::string::npos ? 0 : 1);
  }
  int status = 0;
  ::waitpid(child, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << "the write did not say 'not writable' (3: could not become another user)";
  EXPECT_EQ(read_file(at("locked.csv")), "keep");
  ::chmod(dir_.c_str(), 0700);
}

// A child writing 400 MB to `target` (after `before` ran in it), interrupted by `sig` once its temporary exists.
// Returns false where the write finished before it could be interrupted (nothing to check); else `status` is the
// child's wait status.
bool interrupt_write(const fs::path& dir, const std::string& target, int sig, const std::function<void()>& before,
                     int* status) {
  const pid_t child = ::fork();
  if (child < 0) return false;
  if (child == 0) {  // writes 400 MB, slowly enough to be interrupted part way
    before();
    write_file_atomic(target, std::string(400u << 20, 'x'));
    ::_exit(0);
  }
  bool started = false;
  for (int i = 0; i < 2000 && !started; ++i) {
    for (const auto& e : fs::directory_iterator(dir)) started = started || e.path().filename().string().find(".tmp.") != std::string::npos;
    if (!started) ::usleep(1000);
  }
  ::kill(child, sig);
  ::waitpid(child, status, 0);
  return started;
}

TEST_F(Files, AnInterruptedWriteLeavesNoTemporary) {
  int status = 0;
  if (!interrupt_write(dir_, at("big.json"), SIGINT, [] {}, &status))
    GTEST_SKIP() << "the write finished before it could be interrupted";
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) GTEST_SKIP() << "the write finished before the signal arrived";
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGINT) << "status " << status;
  EXPECT_EQ(entries(), 0u) << "the temporary was left behind";
}

TEST_F(Files, AnInterruptedCommandSaysOneLineAndKeepsTheOldFile) {
  const std::string target = at("old.json");
  std::ofstream(target) << "old";
  const std::string err = (dir_.parent_path() / ("gs_files_err_" + std::to_string(::getpid()))).string();
  int status = 0;
  const bool started = interrupt_write(dir_, target, SIGTERM, [&] {
    const int fd = ::open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::dup2(fd, 2);
    say_when_interrupted("gemmscope test");
  }, &status);
  std::ifstream in(err);
  const std::string said((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  fs::remove(err);
  if (!started || (WIFEXITED(status) && WEXITSTATUS(status) == 0)) GTEST_SKIP() << "the write finished first";
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM) << "status " << status;
  EXPECT_EQ(said, "gemmscope test: interrupted (SIGTERM) while writing " + target +
                      ": left as it was, no temporary behind\n");
  std::ifstream kept(target);
  EXPECT_EQ(std::string((std::istreambuf_iterator<char>(kept)), std::istreambuf_iterator<char>()), "old");
  EXPECT_EQ(entries(), 1u) << "the temporary was left behind";
}

// A handler of the program's own (the deck export's: it stops its loop and removes its folder) stays in charge: the
// write finishes, then the program sees its flag. Replacing it would end the program with its folder left behind.
volatile std::sig_atomic_t g_flag = 0;
extern "C" void set_flag(int) { g_flag = 1; }

TEST_F(Files, AProgramsOwnHandlerStaysInCharge) {
  int status = 0;
  const bool started = interrupt_write(dir_, at("big.json"), SIGINT, [] { std::signal(SIGINT, set_flag); }, &status);
  if (!started) GTEST_SKIP() << "the write finished before it could be interrupted";
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "the program's handler was replaced: status " << status;
  EXPECT_EQ(entries(), 1u) << "the write did not finish, or left its temporary";
  EXPECT_EQ(fs::file_size(at("big.json")), 400u << 20);
}

}  // namespace
}  // namespace gs
