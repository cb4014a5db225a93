#include "gemm_choice.hpp"

#include <limits>
#include <map>

namespace cb {

std::string shape_key(const cuda::MatmulShape& s) {
  return std::string(s.transa ? "T" : "N") + (s.transb ? "T" : "N") + " " + std::to_string(s.m) +
         "x" + std::to_string(s.n) + "x" + std::to_string(s.k);
}

std::vector<int> fastest_candidates(const std::vector<GemmTrial>& trials, void* workspace,
                                    cudaStream_t stream) {
  std::vector<int> choice(trials.size(), 0);
  std::map<std::string, int> chosen; // by problem, layouts and types
  for (std::size_t i = 0; i < trials.size(); ++i) {
    const GemmTrial& trial = trials[i];
    const cuda::MatmulShape& s = trial.matmul->shape();
    const std::string key = shape_key(s) + " " + std::to_string(s.lda) + "," +
                            std::to_string(s.ldb) + "," + std::to_string(s.ldc) + " " +
                            std::to_string(static_cast<int>(s.out));
    if (const auto it = chosen.find(key); it != chosen.end()) {
      choice[i] = it->second;
      continue;
    }
    int best = 0;
    double best_s = std::numeric_limits<double>::infinity();
    for (int k = 0; k < trial.matmul->candidates(); ++k) {
      const double t =
          trial.matmul->time_candidate(k, trial.a, trial.b, trial.c, workspace, stream);
      if (t < best_s) {
        best_s = t;
        best = k;
      }
    }
    chosen[key] = choice[i] = best;
  }
  return choice;
}

} // namespace cb
