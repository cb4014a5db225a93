#include "storage/io_memory.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <cstdlib>
#include <new>

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

} // namespace cb
