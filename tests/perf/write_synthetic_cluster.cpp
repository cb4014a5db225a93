// write_synthetic_cluster FILE [NODES [GPUS_PER_NODE]]: the results file of a whole-cluster run
// (synthetic_cluster.hpp), for tests/perf/harness-scale.
//
// FILE must not exist: the file is ~100 MB, and a mistyped flag (`--help`) once became its name,
// so a name that starts with '-' or is already taken is refused rather than written or replaced.
#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "results/results_file_writer.hpp"
#include "synthetic_cluster.hpp"

namespace {

const char* const kUsage = "usage: write_synthetic_cluster FILE [NODES [GPUS_PER_NODE]]\n"
                           "  writes a new results file FILE (it must not exist) of a NODES x\n"
                           "  GPUS_PER_NODE run (default 128 x 8) with per-rank data\n";

// A count of 1 .. 100,000 written in full ("12abc", "0", "-3" are refused).
bool parse_count(const char* text, int& out) {
  errno = 0;
  char* end = nullptr;
  const long value = std::strtol(text, &end, 10);
  if (errno != 0 || end == text || *end != '\0' || value < 1 || value > 100000)
    return false;
  out = static_cast<int>(value);
  return true;
}

} // namespace

int main(int argc, char** argv) {
  if (argc == 2 && (std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0)) {
    std::fputs(kUsage, stdout);
    return 0;
  }
  if (argc < 2 || argc > 4) {
    std::fputs(kUsage, stderr);
    return 2;
  }
  const std::string path = argv[1];
  if (path.empty() || path[0] == '-') {
    std::fprintf(stderr, "write_synthetic_cluster: FILE '%s' looks like a flag; give a file name\n",
                 path.c_str());
    return 2;
  }
  struct stat existing {};
  if (::lstat(path.c_str(), &existing) == 0) {
    std::fprintf(stderr, "write_synthetic_cluster: FILE %s exists; give a new file name\n",
                 path.c_str());
    return 2;
  }
  cb::perf::ClusterShape shape;
  if (argc > 2 && !parse_count(argv[2], shape.nodes)) {
    std::fprintf(stderr, "write_synthetic_cluster: NODES '%s' is not a count from 1 to 100000\n",
                 argv[2]);
    return 2;
  }
  if (argc > 3 && !parse_count(argv[3], shape.gpus_per_node)) {
    std::fprintf(stderr,
                 "write_synthetic_cluster: GPUS_PER_NODE '%s' is not a count from 1 to 100000\n",
                 argv[3]);
    return 2;
  }
  cb::ResultsFileWriter writer(path, nlohmann::json::object(), cb::InvalidUtf8::replace);
  const nlohmann::json run = cb::perf::synthetic_cluster_run(shape);
  writer.set_rank_identities(run); // as a run's writer leaves them out
  cb::perf::synthetic_cluster_records(shape, 7, [&](cb::Record&& r) { writer.add(r); });
  writer.commit(run);
  return 0;
}
