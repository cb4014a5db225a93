#include <gtest/gtest.h>

#include <vector>

#include "storage/block_format.hpp"

namespace cb {
namespace {

TEST(StorageHeader, RoundTrip) {
  std::vector<unsigned char> block(kStorageHeaderBytes, 0xAA);
  encode_storage_header({64u << 20, 1234, true}, block.data());
  std::string why;
  const auto h = decode_storage_header(block.data(), &why);
  ASSERT_TRUE(h) << why;
  EXPECT_EQ(h->data_bytes, 64u << 20);
  EXPECT_EQ(h->seed, 1234u);
  EXPECT_TRUE(h->complete);
}

TEST(StorageHeader, ForeignOrDamagedHeadersAreRefused) {
  std::vector<unsigned char> block(kStorageHeaderBytes, 0);
  std::string why;
  EXPECT_FALSE(decode_storage_header(block.data(), &why));
  EXPECT_NE(why.find("magic"), std::string::npos);
  encode_storage_header({4096, 1, false}, block.data());
  block[20] ^= 1; // inside the data-size word
  EXPECT_FALSE(decode_storage_header(block.data(), &why));
  EXPECT_NE(why.find("checksum"), std::string::npos);
}

TEST(StorageChunk, AFilledChunkChecksOut) {
  std::vector<unsigned char> chunk(kStorageChunkBytes);
  fill_storage_chunk(77, 5, chunk.data());
  EXPECT_EQ(check_storage_chunk(77, 5, chunk.data()), "");
}

TEST(StorageChunk, AnyFlippedByteIsCaught) {
  std::vector<unsigned char> chunk(kStorageChunkBytes);
  for (std::size_t byte : {0u, 8u, 100u, 4000u, 4095u}) {
    fill_storage_chunk(77, 5, chunk.data());
    chunk[byte] ^= 0x10;
    EXPECT_NE(check_storage_chunk(77, 5, chunk.data()), "") << "byte " << byte;
  }
}

TEST(StorageChunk, MisplacedOrForeignChunksAreCaught) {
  std::vector<unsigned char> chunk(kStorageChunkBytes);
  fill_storage_chunk(77, 5, chunk.data());
  EXPECT_NE(check_storage_chunk(77, 6, chunk.data()).find("found at this offset"),
            std::string::npos);
  EXPECT_NE(check_storage_chunk(78, 5, chunk.data()), "");
}

TEST(StorageChunk, RangeCheckCountsAndLocatesBadChunks) {
  std::vector<unsigned char> data(8 * kStorageChunkBytes);
  for (std::size_t i = 0; i < 8; ++i)
    fill_storage_chunk(9, 100 + i, data.data() + i * kStorageChunkBytes);
  EXPECT_EQ(check_storage_chunks(9, 100, data.data(), data.size()).bad_chunks, 0u);
  data[3 * kStorageChunkBytes + 17] ^= 1;
  data[6 * kStorageChunkBytes + 4000] ^= 1;
  const ChunkCheck c = check_storage_chunks(9, 100, data.data(), data.size());
  EXPECT_EQ(c.bad_chunks, 2u);
  EXPECT_EQ(c.first_bad_chunk, 103u);
  EXPECT_EQ(c.first_problem, "checksum mismatch");
}

TEST(StorageChecksum, DependsOnEveryWordAndTheSeed) {
  std::uint64_t words[4] = {1, 2, 3, 4};
  const auto h = storage_checksum(words, 4, 0);
  EXPECT_NE(h, storage_checksum(words, 4, 1));
  words[3] = 5;
  EXPECT_NE(h, storage_checksum(words, 4, 0));
}

} // namespace
} // namespace cb
