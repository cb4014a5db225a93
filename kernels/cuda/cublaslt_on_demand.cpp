#include "cuda/cublaslt_on_demand.hpp"

#include <cublasLt.h>
#include <dlfcn.h>

namespace cb::cuda {
namespace {

struct Library {
  void* handle = nullptr;
  std::string error;
};

const Library& library() {
  static const Library loaded = [] {
    Library l;
    // By name (the loader's path, as a linked library would be found), else in the toolkit this
    // was built against.
    l.handle = ::dlopen(cublaslt_library_name(), RTLD_NOW | RTLD_LOCAL);
    if (!l.handle) {
      const std::string built_with =
          std::string(CB_CUDA_LIBRARY_DIR) + "/" + cublaslt_library_name();
      l.handle = ::dlopen(built_with.c_str(), RTLD_NOW | RTLD_LOCAL);
    }
    if (!l.handle) {
      const char* why = ::dlerror();
      l.error = std::string("cannot load ") + cublaslt_library_name() + ": " +
                (why ? why : "unknown error");
    }
    return l;
  }();
  return loaded;
}

void* symbol(const char* name) {
  const Library& l = library();
  return l.handle ? ::dlsym(l.handle, name) : nullptr;
}

} // namespace

const char* cublaslt_library_name() {
  return "libcublasLt.so." CB_CUBLASLT_SOVERSION;
}

const std::vector<std::string>& cublaslt_functions_used() {
  static const std::vector<std::string> names{"cublasLtCreate",
                                              "cublasLtDestroy",
                                              "cublasLtMatmul",
                                              "cublasLtMatmulAlgoGetHeuristic",
                                              "cublasLtMatmulDescCreate",
                                              "cublasLtMatmulDescDestroy",
                                              "cublasLtMatmulDescSetAttribute",
                                              "cublasLtMatmulPreferenceCreate",
                                              "cublasLtMatmulPreferenceDestroy",
                                              "cublasLtMatmulPreferenceSetAttribute",
                                              "cublasLtMatrixLayoutCreate",
                                              "cublasLtMatrixLayoutDestroy"};
  return names;
}

std::string cublaslt_load_problem() {
  if (!library().error.empty())
    return library().error;
  std::string missing;
  for (const auto& name : cublaslt_functions_used()) {
    if (!symbol(name.c_str()))
      missing += (missing.empty() ? "" : ", ") + name;
  }
  return missing.empty() ? std::string()
                         : std::string(cublaslt_library_name()) + " lacks " + missing;
}

} // namespace cb::cuda

// The functions themselves, with cublasLt.h's own signatures: each finds the library's function
// on its first call and forwards to it; without the library every call fails with
// CUBLAS_STATUS_NOT_INITIALIZED, and the caller's error names the call (gemm_lt.cpp asks
// cublaslt_load_problem() first, to say why).
#define CB_CUBLASLT_FORWARD(name, params, args)                                                    \
  extern "C" cublasStatus_t CUBLASWINAPI name params {                                             \
    static const auto real = reinterpret_cast<decltype(&name)>(::cb::cuda::symbol(#name));         \
    return real ? real args : CUBLAS_STATUS_NOT_INITIALIZED;                                       \
  }

CB_CUBLASLT_FORWARD(cublasLtCreate, (cublasLtHandle_t * handle), (handle))
CB_CUBLASLT_FORWARD(cublasLtDestroy, (cublasLtHandle_t handle), (handle))
CB_CUBLASLT_FORWARD(cublasLtMatmul,
                    (cublasLtHandle_t handle, cublasLtMatmulDesc_t desc, const void* alpha,
                     const void* A, cublasLtMatrixLayout_t Adesc, const void* B,
                     cublasLtMatrixLayout_t Bdesc, const void* beta, const void* C,
                     cublasLtMatrixLayout_t Cdesc, void* D, cublasLtMatrixLayout_t Ddesc,
                     const cublasLtMatmulAlgo_t* algo, void* workspace, size_t workspace_bytes,
                     cudaStream_t stream),
                    (handle, desc, alpha, A, Adesc, B, Bdesc, beta, C, Cdesc, D, Ddesc, algo,
                     workspace, workspace_bytes, stream))
CB_CUBLASLT_FORWARD(cublasLtMatmulAlgoGetHeuristic,
                    (cublasLtHandle_t handle, cublasLtMatmulDesc_t desc,
                     cublasLtMatrixLayout_t Adesc, cublasLtMatrixLayout_t Bdesc,
                     cublasLtMatrixLayout_t Cdesc, cublasLtMatrixLayout_t Ddesc,
                     cublasLtMatmulPreference_t preference, int requested,
                     cublasLtMatmulHeuristicResult_t results[], int* returned),
                    (handle, desc, Adesc, Bdesc, Cdesc, Ddesc, preference, requested, results,
                     returned))
CB_CUBLASLT_FORWARD(cublasLtMatmulDescCreate,
                    (cublasLtMatmulDesc_t * desc, cublasComputeType_t compute,
                     cudaDataType_t scale),
                    (desc, compute, scale))
CB_CUBLASLT_FORWARD(cublasLtMatmulDescDestroy, (cublasLtMatmulDesc_t desc), (desc))
CB_CUBLASLT_FORWARD(cublasLtMatmulDescSetAttribute,
                    (cublasLtMatmulDesc_t desc, cublasLtMatmulDescAttributes_t attr,
                     const void* buf, size_t bytes),
                    (desc, attr, buf, bytes))
CB_CUBLASLT_FORWARD(cublasLtMatmulPreferenceCreate, (cublasLtMatmulPreference_t * pref), (pref))
CB_CUBLASLT_FORWARD(cublasLtMatmulPreferenceDestroy, (cublasLtMatmulPreference_t pref), (pref))
CB_CUBLASLT_FORWARD(cublasLtMatmulPreferenceSetAttribute,
                    (cublasLtMatmulPreference_t pref, cublasLtMatmulPreferenceAttributes_t attr,
                     const void* buf, size_t bytes),
                    (pref, attr, buf, bytes))
CB_CUBLASLT_FORWARD(cublasLtMatrixLayoutCreate,
                    (cublasLtMatrixLayout_t * layout, cudaDataType type, uint64_t rows,
                     uint64_t cols, int64_t ld),
                    (layout, type, rows, cols, ld))
CB_CUBLASLT_FORWARD(cublasLtMatrixLayoutDestroy, (cublasLtMatrixLayout_t layout), (layout))
