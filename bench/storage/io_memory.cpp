#include "storage/io_memory.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <new>
#include <sstream>

namespace cb {

std::size_t io_memory_alignment(std::uint64_t bytes) {
  constexpr std::size_t kPage = 4096, kHugePage = 2u << 20;
  return bytes >= kIoHugeFrom ? kHugePage : kPage;
}

IoMemory io_memory(std::uint64_t bytes) {
  const std::size_t align = io_memory_alignment(bytes);
  const std::uint64_t rounded = (std::max<std::uint64_t>(bytes, 1) + align - 1) / align * align;
  void* p = std::aligned_alloc(align, rounded);
  if (!p)
    throw std::bad_alloc();
  if (align > 4096) // a hint: a kernel without transparent huge pages keeps 4 KiB pages
    ::madvise(p, rounded, MADV_HUGEPAGE);
  return IoMemory(static_cast<unsigned char*>(p), std::free);
}

std::optional<std::uint64_t> smaps_huge_bytes(const std::string& smaps, std::uintptr_t address) {
  // A mapping's header line is "start-end perms offset dev inode [path]" in hex; its fields
  // follow as "Name:   value kB" lines until the next header.
  std::istringstream in(smaps);
  std::string line;
  bool inside = false;
  while (std::getline(in, line)) {
    const std::size_t dash = line.find('-');
    const std::size_t space = line.find(' ');
    if (dash != std::string::npos && space != std::string::npos && dash < space &&
        line.find(':') > space) {
      try {
        const auto start =
            static_cast<std::uintptr_t>(std::stoull(line.substr(0, dash), nullptr, 16));
        const auto end = static_cast<std::uintptr_t>(
            std::stoull(line.substr(dash + 1, space - dash - 1), nullptr, 16));
        inside = start <= address && address < end;
      } catch (const std::exception&) {
        inside = false;
      }
      continue;
    }
    static const std::string kField = "AnonHugePages:";
    if (inside && line.compare(0, kField.size(), kField) == 0) {
      std::istringstream value(line.substr(kField.size()));
      std::uint64_t kib = 0;
      if (!(value >> kib))
        return std::nullopt;
      return kib * 1024;
    }
  }
  return std::nullopt;
}

std::uint64_t io_memory_huge_bytes(const void* p, std::uint64_t bytes) {
  std::ifstream file("/proc/self/smaps");
  if (!file)
    return 0;
  std::ostringstream text;
  text << file.rdbuf();
  const auto huge = smaps_huge_bytes(text.str(), reinterpret_cast<std::uintptr_t>(p));
  return huge ? std::min(*huge, bytes) : 0;
}

} // namespace cb
