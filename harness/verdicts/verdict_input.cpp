#include "verdicts/verdict_input.hpp"
#include "results/json_file.hpp"

#include "core/error.hpp"
#include "results/results_io.hpp"
#include "verdicts/google_benchmark_json.hpp"

namespace cb {

ResultsFile load_verdict_input(const std::string& path) {
  // Read once, streaming: a whole cluster's results file never becomes a tree beside its records.
  ResultsDocument document(path);
  const nlohmann::json& j = document.top();
  if (is_google_benchmark_json(j))
    return reading_json(path, [&] { return results_from_google_benchmark(j, path); });
  if (j.is_object() && !j.contains("schema")) {
    throw InputError(path + ": neither a clusterbench results file (no field 'schema') nor Google "
                            "Benchmark JSON (no fields 'context' and 'benchmarks')");
  }
  return document.results();
}

} // namespace cb
