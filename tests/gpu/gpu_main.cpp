// The GPU tests' entry point: skip (exit 77) with the driver's message when no GPU is usable,
// otherwise start MPI as a single rank (the NCCL tests build their communicator from it) and run.
#include <gtest/gtest.h>

#include <cstdio>

#include "cuda/cuda_backend.hpp"
#include "runtime/communicator.hpp"

int main(int argc, char** argv) {
  std::string why;
  if (cb::cuda::count_cuda_devices(why) == 0) {
    std::printf("SKIP: no usable GPU: %s\n", why.c_str());
    return 77;
  }
  ::testing::InitGoogleTest(&argc, argv);
  cb::MpiSession mpi(&argc, &argv);
  return RUN_ALL_TESTS();
}
