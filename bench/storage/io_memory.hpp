#pragma once
// Host memory that O_DIRECT blocks move to and from: 4 KiB aligned (O_DIRECT needs it), and from
// 256 KiB up in 2 MiB pages where the kernel gives them (2 MiB aligned, whole 2 MiB, and
// MADV_HUGEPAGE: transparent huge pages in the "madvise" mode most distributions ship). A block in
// 4 KiB pages reaches the device as one segment per page that is not physically next to the one
// before; on this project's virtio disks that per-segment handling, not the device, held 1 MiB
// O_DIRECT transfers to about half the rate the same reads and writes reach from 2 MiB pages
// (docs/REFERENCE.md, "Host machines"). Without transparent huge pages the memory is in 4 KiB
// pages, as before.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace cb {

// The alignment io_memory gives `bytes`: 2 MiB from kIoHugeFrom up, else 4 KiB. The allocation is
// a whole number of it.
constexpr std::uint64_t kIoHugeFrom = 256u << 10;
std::size_t io_memory_alignment(std::uint64_t bytes);

// The memory, not yet touched; freed with free(). Throws std::bad_alloc when there is none.
using IoMemory = std::unique_ptr<unsigned char, void (*)(void*)>;
IoMemory io_memory(std::uint64_t bytes);

// What the kernel gave: of `bytes` at `p` (touched), how many are in transparent huge pages,
// from the AnonHugePages of the mapping that holds `p` in /proc/self/smaps (capped at `bytes`:
// the mapping may be a little larger than the buffer). 0 where smaps cannot be read. A record
// says it, because on some disks the page size, not the device, sets the O_DIRECT rate.
std::uint64_t io_memory_huge_bytes(const void* p, std::uint64_t bytes);
// The pure part: the AnonHugePages (bytes) of the mapping in `smaps` (the text of
// /proc/PID/smaps) whose address range holds `address`; nullopt when no mapping does.
std::optional<std::uint64_t> smaps_huge_bytes(const std::string& smaps, std::uintptr_t address);

} // namespace cb
