// cuBLASLt is opened on first use: the library of the toolkit this was built with loads and has
// every function the GEMM calls (no GPU needed to load it), and it is not loaded before that.
#include <gtest/gtest.h>

#include <link.h>

#include <string>

#include "cuda/cublaslt_on_demand.hpp"

namespace cb::cuda {
namespace {

bool cublaslt_is_mapped() {
  bool found = false;
  dl_iterate_phdr(
      [](dl_phdr_info* info, size_t, void* data) {
        if (info->dlpi_name &&
            std::string(info->dlpi_name).find("libcublasLt") != std::string::npos)
          *static_cast<bool*>(data) = true;
        return 0;
      },
      &found);
  return found;
}

TEST(CublasLtOnDemand, NotLoadedUntilUsedThenEveryFunctionIsFound) {
  EXPECT_FALSE(cublaslt_is_mapped()) << "libcublasLt was loaded before any GEMM asked for it";
  EXPECT_EQ(cublaslt_load_problem(), "");
  EXPECT_TRUE(cublaslt_is_mapped());
  EXPECT_EQ(cublaslt_functions_used().size(), 12u);
  EXPECT_NE(std::string(cublaslt_library_name()).find("libcublasLt.so."), std::string::npos);
}

} // namespace
} // namespace cb::cuda
