#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <thread>

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

// A FIFO nobody writes to reads as empty at once (it waited forever for a writer); one with a
// writer is read to its end.
TEST(TextFile, AFifoWithoutAWriterEndsAndOneWithAWriterIsRead) {
  ScratchDir dir;
  const std::string fifo = dir.file("fifo");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_EQ(read_text_file(fifo), "");
  const std::string message = "{\"x\": 1}\n";
  // A write after the reader has gone (it opened before the writer and read nothing) fails with
  // EPIPE instead of ending the test with SIGPIPE; the writer then waits for the next reader.
  const auto old_handler = std::signal(SIGPIPE, SIG_IGN);
  std::thread writer([&] {
    for (;;) {
      const int fd = ::open(fifo.c_str(), O_WRONLY); // waits for a reader
      const ssize_t n = ::write(fd, message.data(), message.size());
      ::close(fd);
      if (n == static_cast<ssize_t>(message.size()))
        return;
    }
  });
  std::string got;
  for (int i = 0; i < 2000 && got.empty(); ++i) {
    got = read_text_file(fifo);
    if (got.empty())
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  if (got.empty()) { // never: but the writer must not be left waiting for a reader
    const int fd = ::open(fifo.c_str(), O_RDONLY);
    ::close(fd);
  }
  writer.join();
  std::signal(SIGPIPE, old_handler);
  EXPECT_EQ(got, "{\"x\": 1}\n");
}
