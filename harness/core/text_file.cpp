#include "core/text_file.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "core/error.hpp"

namespace cb {

void refuse_directory(const std::string& path) {
  if (struct stat kind{}; ::stat(path.c_str(), &kind) == 0 && S_ISDIR(kind.st_mode))
    throw InputError(path + ": is a directory, not a file");
}

std::string read_text_file(const std::string& path) {
  refuse_directory(path);
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw InputError(path + ": cannot open: " + std::strerror(errno));
  // A regular file is read straight into a string of its size: through a stringstream the text
  // would be held twice at the end (the stream's buffer and its copy).
  struct stat info {};
  if (::stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode) && info.st_size > 0) {
    std::string text(static_cast<std::size_t>(info.st_size), '\0');
    in.read(text.data(), info.st_size);
    if (in.gcount() == info.st_size && in.peek() == std::char_traits<char>::eof())
      return text;
    in.clear();
    in.seekg(0, std::ios::beg);
  }
  // A pipe, a file that changed size while read, an empty /proc file: read to its end.
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

} // namespace cb
