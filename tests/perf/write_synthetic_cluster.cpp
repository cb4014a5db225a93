// write_synthetic_cluster FILE [NODES [GPUS_PER_NODE]]: the results file of a whole-cluster run
// (synthetic_cluster.hpp), for tests/perf/harness-scale.
#include <cstdio>
#include <cstdlib>
#include <string>

#include "results/results_file_writer.hpp"
#include "synthetic_cluster.hpp"

int main(int argc, char** argv) {
  if (argc < 2 || argc > 4) {
    std::fprintf(stderr, "usage: write_synthetic_cluster FILE [NODES [GPUS_PER_NODE]]\n");
    return 2;
  }
  cb::perf::ClusterShape shape;
  if (argc > 2)
    shape.nodes = std::atoi(argv[2]);
  if (argc > 3)
    shape.gpus_per_node = std::atoi(argv[3]);
  if (shape.nodes < 1 || shape.gpus_per_node < 1) {
    std::fprintf(stderr, "write_synthetic_cluster: NODES and GPUS_PER_NODE must be at least 1\n");
    return 2;
  }
  cb::ResultsFileWriter writer(argv[1], nlohmann::json::object(), cb::InvalidUtf8::replace);
  cb::perf::synthetic_cluster_records(shape, 7, [&](cb::Record&& r) { writer.add(r); });
  writer.commit(cb::perf::synthetic_cluster_run(shape));
  return 0;
}
