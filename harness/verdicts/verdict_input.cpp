#include "verdicts/verdict_input.hpp"
#include "results/json_file.hpp"

#include <fstream>

#include "core/error.hpp"
#include "results/results_io.hpp"
#include "results/results_journal.hpp"
#include "verdicts/google_benchmark_json.hpp"

namespace cb {

ResultsFile load_verdict_input(const std::string& path) {
  const nlohmann::json j = read_json_file(path);
  if (is_google_benchmark_json(j))
    return reading_json(path, [&] { return results_from_google_benchmark(j, path); });
  if (j.is_object() && !j.contains("schema")) {
    throw InputError(path + ": neither a clusterbench results file (no field 'schema') nor Google "
                            "Benchmark JSON (no fields 'context' and 'benchmarks')");
  }
  ResultsFile results = reading_json(path, [&] { return results_from_json(j, path); });
  merge_results_journal(results, path);
  return results;
}

} // namespace cb
