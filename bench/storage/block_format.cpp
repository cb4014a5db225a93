#include "storage/block_format.hpp"

#include <cstring>

namespace cb {
namespace {

constexpr char kMagic[8] = {'C', 'B', 'S', 'T', 'O', 'R', 'E', '\n'};
constexpr std::size_t kChunkWords = kStorageChunkBytes / 8;

// Header words after the magic: version, data bytes, seed, complete, checksum of the words before.
enum HeaderWord { kVersion = 1, kDataBytes, kSeed, kComplete, kHeaderChecksum, kHeaderWords };

std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

void load_words(const unsigned char* bytes, std::uint64_t* words, std::size_t count) {
  std::memcpy(words, bytes, count * 8);
}

} // namespace

std::uint64_t storage_checksum(const std::uint64_t* words, std::size_t count, std::uint64_t seed) {
  std::uint64_t h = 0xcbf29ce484222325ull ^ seed;
  for (std::size_t i = 0; i < count; ++i)
    h = (h ^ words[i]) * 0x100000001b3ull;
  return splitmix64(h);
}

void encode_storage_header(const StorageHeader& header, unsigned char* block) {
  std::memset(block, 0, kStorageHeaderBytes);
  std::uint64_t words[kHeaderWords] = {};
  std::memcpy(&words[0], kMagic, 8);
  words[kVersion] = kStorageFormatVersion;
  words[kDataBytes] = header.data_bytes;
  words[kSeed] = header.seed;
  words[kComplete] = header.complete ? 1 : 0;
  words[kHeaderChecksum] = storage_checksum(words, kHeaderChecksum, 0);
  std::memcpy(block, words, sizeof words);
}

std::optional<StorageHeader> decode_storage_header(const unsigned char* block, std::string* why) {
  auto fail = [&](const std::string& reason) -> std::optional<StorageHeader> {
    if (why)
      *why = reason;
    return std::nullopt;
  };
  std::uint64_t words[kHeaderWords];
  load_words(block, words, kHeaderWords);
  if (std::memcmp(&words[0], kMagic, 8) != 0)
    return fail("no clusterbench header (magic)");
  if (words[kHeaderChecksum] != storage_checksum(words, kHeaderChecksum, 0)) {
    return fail("clusterbench header checksum mismatch");
  }
  if (words[kVersion] != kStorageFormatVersion) {
    return fail("clusterbench file format version " + std::to_string(words[kVersion]) +
                ", this build reads " + std::to_string(kStorageFormatVersion));
  }
  if (words[kDataBytes] % kStorageChunkBytes != 0)
    return fail("data size not whole chunks");
  return StorageHeader{words[kDataBytes], words[kSeed], words[kComplete] == 1};
}

void fill_storage_chunk(std::uint64_t seed, std::uint64_t index, unsigned char* chunk) {
  std::uint64_t words[kChunkWords];
  words[0] = index;
  words[1] = seed;
  const std::uint64_t base = splitmix64(seed ^ (index * 0x9e3779b97f4a7c15ull));
  for (std::size_t w = 2; w < kChunkWords - 1; ++w)
    words[w] = splitmix64(base + w);
  words[kChunkWords - 1] = storage_checksum(words, kChunkWords - 1, seed);
  std::memcpy(chunk, words, kStorageChunkBytes);
}

std::string check_storage_chunk(std::uint64_t seed, std::uint64_t index,
                                const unsigned char* chunk) {
  std::uint64_t words[kChunkWords];
  load_words(chunk, words, kChunkWords);
  if (words[kChunkWords - 1] != storage_checksum(words, kChunkWords - 1, seed)) {
    return "checksum mismatch";
  }
  if (words[1] != seed)
    return "chunk of another file (seed " + std::to_string(words[1]) + ")";
  if (words[0] != index)
    return "chunk " + std::to_string(words[0]) + " found at this offset";
  return "";
}

ChunkCheck check_storage_chunks(std::uint64_t seed, std::uint64_t first_index,
                                const unsigned char* data, std::size_t bytes) {
  ChunkCheck result;
  for (std::size_t off = 0; off + kStorageChunkBytes <= bytes; off += kStorageChunkBytes) {
    const std::uint64_t index = first_index + off / kStorageChunkBytes;
    const std::string problem = check_storage_chunk(seed, index, data + off);
    if (problem.empty())
      continue;
    if (result.bad_chunks++ == 0) {
      result.first_bad_chunk = index;
      result.first_problem = problem;
    }
  }
  return result;
}

} // namespace cb
