#pragma once
// The format of the storage family's files, which makes them recognisably clusterbench's and lets
// every block read be verified.
//
//   bytes [0, 4096)        header: magic, version, data size, seed, "complete" flag, its checksum
//   bytes [4096, 4096 + D) data: 4 KiB chunks; chunk i holds its index, the seed, 509 words of a
//                          pattern from (seed, i), and a 64-bit checksum of the other 511 words
//
// A chunk therefore checks itself: a flipped bit fails the checksum, a chunk read from the wrong
// offset or another file carries the wrong index or seed.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace cb {

inline constexpr std::size_t kStorageHeaderBytes = 4096;
inline constexpr std::size_t kStorageChunkBytes = 4096;
inline constexpr std::uint32_t kStorageFormatVersion = 1;

struct StorageHeader {
  std::uint64_t data_bytes = 0; // bytes after the header, a multiple of kStorageChunkBytes
  std::uint64_t seed = 0;
  bool complete = false; // set once every chunk is written and synced
};

// 64-bit checksum of `words` 8-byte words (FNV-1a over words, then a final avalanche).
std::uint64_t storage_checksum(const std::uint64_t* words, std::size_t count, std::uint64_t seed);

// Writes the header into a kStorageHeaderBytes block (the rest zeroed).
void encode_storage_header(const StorageHeader& header, unsigned char* block);
// The header, or nullopt with the reason (wrong magic, version, checksum, size) in *why.
std::optional<StorageHeader> decode_storage_header(const unsigned char* block, std::string* why);

// Fills one chunk of kStorageChunkBytes for chunk index `index` of a file with `seed`.
void fill_storage_chunk(std::uint64_t seed, std::uint64_t index, unsigned char* chunk);
// Empty when the chunk is right; else what is wrong with it.
std::string check_storage_chunk(std::uint64_t seed, std::uint64_t index,
                                const unsigned char* chunk);

struct ChunkCheck {
  std::uint64_t bad_chunks = 0;
  std::uint64_t first_bad_chunk = 0; // its index, when bad_chunks > 0
  std::string first_problem;         // what is wrong with it
};
// Checks `bytes` (a multiple of the chunk size) holding chunks first_index, first_index + 1, ...
ChunkCheck check_storage_chunks(std::uint64_t seed, std::uint64_t first_index,
                                const unsigned char* data, std::size_t bytes);

} // namespace cb
