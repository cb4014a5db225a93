// On a machine without a usable GPU (the build machines), the backend must say why instead of
// failing; on a GPU machine the same calls find devices.
#include <gtest/gtest.h>

#include "core/error.hpp"
#include "cuda/cuda_backend.hpp"
#include "runtime/backend_registry.hpp"

namespace cb::cuda {
namespace {

TEST(NoGpu, DeviceCountCarriesTheDriverMessage) {
  std::string why;
  const int count = count_cuda_devices(why);
  if (count > 0) {
    EXPECT_TRUE(why.empty());
  } else {
    EXPECT_FALSE(
        why.empty()); // e.g. "CUDA driver version is insufficient for CUDA runtime version"
  }
}

TEST(NoGpu, CreatingTheBackendWithoutADeviceIsARunError) {
  std::string why;
  if (count_cuda_devices(why) > 0)
    GTEST_SKIP() << "a GPU is present";
  try {
    CudaBackend backend(0);
    FAIL() << "expected RunError";
  } catch (const RunError& e) {
    EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << e.what();
  }
}

TEST(NoGpu, ExplicitCudaBackendIsBadInputWithTheReason) {
  // The registration lives in the executable's object library; register an equivalent here.
  static const BackendRegistration registration{
      {"cuda", 10, [](std::string& w) { return count_cuda_devices(w); },
       [](int r) -> std::unique_ptr<Backend> { return std::make_unique<CudaBackend>(r); },
       cuda_build_summary(), [](int r) { return bind_thread_to_gpu(r); },
       [] { return visible_gpus(); }}};
  std::string why;
  if (count_cuda_devices(why) > 0)
    GTEST_SKIP() << "a GPU is present";
  std::string note;
  try {
    BackendRegistry::instance().resolve("cuda", note);
    FAIL() << "expected InputError";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("--backend cuda"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << e.what();
  }
  // auto falls back to the host backend and says why.
  EXPECT_EQ(BackendRegistry::instance().resolve("auto", note), "host");
  EXPECT_NE(note.find(why), std::string::npos) << note;
}

TEST(NoGpu, BuildSummarySaysWhatWasCompiledInAndOut) {
  const std::string summary = cuda_build_summary();
  EXPECT_NE(summary.find("sm_"), std::string::npos) << summary;
#ifdef CB_HAVE_CUFILE
  EXPECT_NE(summary.find("GPUDirect Storage reads are not measured yet"), std::string::npos)
      << summary;
#else
  EXPECT_NE(summary.find("GPUDirect Storage compiled out (cufile.h not found"), std::string::npos)
      << summary;
#endif
#ifdef CB_HAVE_NCCL
  EXPECT_NE(summary.find("NCCL 2."), std::string::npos) << summary;
#endif
}

} // namespace
} // namespace cb::cuda
