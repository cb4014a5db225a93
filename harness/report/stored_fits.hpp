#pragma once
// The fits section a results file carries (written by `clusterbench fit`). The report uses those
// figures instead of refitting, but only where they still describe the records: a curve's entry
// must name the same suite, case, params and metric and hold the same points, so a section left
// stale by records added later is never trusted. Entries of another shape are ignored.
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/alpha_beta.hpp"
#include "analysis/amdahl.hpp"
#include "analysis/curves.hpp"
#include "analysis/scaling_fits.hpp"
#include "analysis/usl.hpp"

namespace cb::report {

struct StoredCurveModels {
  std::optional<UslFit> usl;
  std::optional<AmdahlFit> amdahl;
};

// Readers of single entries, as fits_json.hpp writes them; nullopt for another shape.
std::optional<UslFit> usl_from_json(const nlohmann::json& j);
std::optional<AmdahlFit> amdahl_from_json(const nlohmann::json& j);
std::optional<RingAllReduceFit> ring_all_reduce_from_json(const nlohmann::json& j);
std::optional<HockneyFit> hockney_from_json(const nlohmann::json& j);

// A view of the section: it points into `fits`, which must outlive it.
class StoredFits {
public:
  explicit StoredFits(const nlohmann::json& fits);
  StoredFits(const StoredFits&) = delete;
  StoredFits& operator=(const StoredFits&) = delete;

  // The stored models of this curve when an entry matches it point for point.
  std::optional<StoredCurveModels> for_curve(const Curve& curve) const;
  // The stored alpha-beta fits, only when the section is current for the collectives: every
  // collectives curve has a matching entry and the section has no other collectives entries.
  // nullopt otherwise, or when the section holds no alpha_beta part.
  struct AlphaBeta {
    std::vector<HockneyFit> per_gpu_count;
    std::vector<RingAllReduceFit> ring_all_reduce;
  };
  std::optional<AlphaBeta> alpha_beta(const std::vector<CurveFits>& curves) const;

private:
  const nlohmann::json* entry_for(const Curve& curve) const;

  std::map<std::string, const nlohmann::json*> curves_; // curve key -> entry
  std::size_t collectives_entries_ = 0;
  const nlohmann::json* alpha_beta_ = nullptr;
};

} // namespace cb::report
