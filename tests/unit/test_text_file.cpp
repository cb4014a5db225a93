#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "core/error.hpp"
#include "core/text_file.hpp"

using namespace cb;
namespace fs = std::filesystem;

namespace {
std::string refusal(const std::string& path) {
  try {
    read_text_file(path);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

struct ScratchDir {
  fs::path path = fs::temp_directory_path() / ("cb-text-file-" + std::to_string(::getpid()));
  ScratchDir() { fs::create_directories(path); }
  ~ScratchDir() { fs::remove_all(path); }
  std::string file(const std::string& name) const { return (path / name).string(); }
};
} // namespace

TEST(TextFile, ReadsARegularFileWhole) {
  ScratchDir dir;
  const std::string text = std::string(300000, 'a') + "\nend";
  std::ofstream(dir.file("in.json")) << text;
  EXPECT_EQ(read_text_file(dir.file("in.json")), text);
  std::ofstream(dir.file("empty.json")).flush();
  EXPECT_EQ(read_text_file(dir.file("empty.json")), "");
}

// A device never ends (/dev/zero filled memory for as long as it was let run): refused by kind.
TEST(TextFile, RefusesDevicesAndDirectoriesByKind) {
  ScratchDir dir;
  EXPECT_NE(refusal("/dev/zero").find("/dev/zero: is a character device"), std::string::npos)
      << refusal("/dev/zero");
  EXPECT_NE(refusal("/dev/null").find("is a character device"), std::string::npos);
  EXPECT_NE(refusal(dir.file("")).find("is a directory"), std::string::npos);
  EXPECT_NE(refusal(dir.file("missing.json")).find("cannot open"), std::string::npos);
}

// A FIFO nobody writes to reads as empty at once (it waited forever for a writer).
TEST(TextFile, AFifoWithoutAWriterReadsAsEmpty) {
  ScratchDir dir;
  const std::string fifo = dir.file("fifo");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_EQ(read_text_file(fifo), "");
}

// A pipe is read to its end (process substitution: `fit <(zcat results.json.gz)`).
TEST(TextFile, APipeIsReadToItsEnd) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  const std::string message = "{\"x\": 1}\n";
  ASSERT_EQ(::write(fds[1], message.data(), message.size()), static_cast<ssize_t>(message.size()));
  ::close(fds[1]);
  EXPECT_EQ(read_text_file("/proc/self/fd/" + std::to_string(fds[0])), message);
  ::close(fds[0]);
}
