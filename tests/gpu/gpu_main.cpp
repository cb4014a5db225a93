// The GPU tests' entry point: skip (exit 77) with the driver's message when no GPU is usable,
// otherwise run. No MPI: the NCCL tests make their ranks as threads (Communicator::threads), so a
// GPU machine without an MPI installation runs them too.
#include <gtest/gtest.h>

#include <cstdio>

#include "cuda/cuda_backend.hpp"

int main(int argc, char** argv) {
  std::string why;
  if (cb::cuda::count_cuda_devices(why) == 0) {
    std::printf("SKIP: no usable GPU: %s\n", why.c_str());
    return 77;
  }
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
