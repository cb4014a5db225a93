#pragma once
// Ranks that are the threads of one process (`run --single-process`): a group's members meet in
// shared memory under one mutex. No MPI is involved, so a node with GPUs but without an MPI
// launcher still runs the whole sweep, each thread driving its own device.
#include <memory>
#include <vector>

#include "runtime/comm_impl.hpp"

namespace cb::detail {

// n ranks; element i belongs to thread i.
std::vector<std::unique_ptr<CommImpl>> thread_world(int n);

} // namespace cb::detail
