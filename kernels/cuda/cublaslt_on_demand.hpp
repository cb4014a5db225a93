#pragma once
// cuBLASLt is loaded on first use (dlopen), not linked: loading libcublasLt runs static
// initialisers that take ~150 MiB of resident memory in every process (measured: a program that
// only links it has 153 MB RSS before main), so a host-backend run of a CUDA-enabled build would
// carry it on every rank. cublaslt_on_demand.cpp defines the cublasLt* functions this project
// calls; each resolves the library's own on its first call.
#include <string>
#include <vector>

namespace cb::cuda {

// The library's file name for this toolkit's major version, e.g. "libcublasLt.so.13".
const char* cublaslt_library_name();
// Empty when the library is loaded and every function this project calls was found; else what
// went wrong (dlopen's message, or the names missing).
std::string cublaslt_load_problem();
// The cublasLt* functions this project calls, by name.
const std::vector<std::string>& cublaslt_functions_used();

} // namespace cb::cuda
