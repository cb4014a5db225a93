#include "report/curve_report.hpp"

#include <algorithm>
#include <map>

#include "analysis/record_values.hpp"
#include "report/report_format.hpp"
#include "report/stored_fits.hpp"
#include "results/suite_names.hpp"
#include "runtime/family.hpp"

namespace cb::report {
namespace {

// Parameters that set the problem size rather than the configuration: a configuration's curves
// at every size collapse to the one at the largest size, where scaling is least hidden by latency.
constexpr const char* kSizeParams[] = {"bytes", "size", "m", "n", "k"};

std::string record_key(const std::string& suite, const std::string& case_name,
                       const std::string& metric, const nlohmann::json& params, int gpus) {
  return suite + '\n' + case_name + '\n' + metric + '\n' + params.dump() + '\n' +
         std::to_string(gpus);
}

// The record behind each curve point, chosen as extract_curves chooses: more samples wins, the
// first on a tie.
class RecordIndex {
public:
  explicit RecordIndex(const ResultsFile& results) {
    for (const Record& r : results.records) {
      if (!is_usable(r))
        continue;
      const std::string metric = headline_metric(r);
      if (metric.empty())
        continue;
      // Keyed by the params the curves carry: identity_params leaves out a collective's element
      // count, which its bytes and dtype already say.
      const auto [it, inserted] = best_.emplace(
          record_key(r.suite, r.case_name, metric, identity_params(r.params), r.gpus), &r);
      if (!inserted && r.samples_s.size() > it->second->samples_s.size())
        it->second = &r;
    }
  }
  const Record* find(const Curve& curve, int gpus) const {
    const auto it = best_.find(
        record_key(curve.key.suite, curve.key.case_name, curve.key.metric, curve.key.params, gpus));
    return it == best_.end() ? nullptr : it->second;
  }

private:
  std::map<std::string, const Record*> best_;
};

std::string configuration_id(const Curve& curve) {
  nlohmann::json rest = curve.key.params;
  for (const char* key : kSizeParams)
    rest.erase(key);
  return curve.key.case_name + '\n' + curve.key.metric + '\n' + rest.dump();
}

// Indices of the curves shown: the largest problem size of each configuration, in first-seen order.
std::vector<std::size_t> shown_curves(const std::vector<CurveFits>& curves,
                                      const std::vector<std::size_t>& of_suite) {
  std::map<std::string, std::size_t> largest;
  std::vector<std::string> order;
  for (std::size_t i : of_suite) {
    const std::string id = configuration_id(curves[i].curve);
    const auto [it, inserted] = largest.emplace(id, i);
    if (inserted) {
      order.push_back(id);
    } else if (problem_size(curves[i].curve.key.params).value_or(0) >
               problem_size(curves[it->second].curve.key.params).value_or(0)) {
      it->second = i;
    }
  }
  std::vector<std::size_t> shown;
  for (const auto& id : order)
    shown.push_back(largest[id]);
  return shown;
}

// The stored models where the fits section has them for these points, else the analysis' own.
CurveFits fits_for(const CurveFits& computed, const StoredFits& stored, std::string& source) {
  const Curve& curve = computed.curve;
  const auto models = stored.for_curve(curve);
  const bool throughput = is_throughput_metric(curve.key.metric);
  if (models && throughput && models->usl && models->amdahl) {
    CurveFits fits;
    fits.curve = curve;
    fits.efficiency = efficiency(curve);
    fits.usl = models->usl;
    fits.amdahl = models->amdahl;
    source = "fits section";
    return fits;
  }
  CurveFits fits = computed;
  source = "computed";
  if (models && throughput) {
    if (models->usl)
      fits.usl = models->usl;
    if (models->amdahl)
      fits.amdahl = models->amdahl;
    source = models->usl ? "fits section" : "computed";
  }
  return fits;
}

CurveReport curve_report(const CurveFits& computed, const StoredFits& stored,
                         const RecordIndex& index, const std::vector<int>& outlook_gpus) {
  const Curve& curve = computed.curve;
  CurveReport report;
  report.fits = fits_for(computed, stored, report.fit_source);
  report.series = scaling_series(curve);
  const auto& e = report.fits.efficiency.value;
  for (std::size_t i = 0; i < curve.gpus.size(); ++i) {
    CurveRow row;
    row.gpus = curve.gpus[i];
    row.nodes = curve.nodes[i];
    row.value = curve.value[i];
    // With one usable point efficiency is 1 by definition and says nothing.
    if (report.scaling_points() >= 2 && i < e.size())
      row.efficiency = e[i];
    if (const Record* r = index.find(curve, curve.gpus[i])) {
      row.spread = per_rank_spread(*r, curve.key.metric);
      row.status = r->status;
      row.spike = r->stats.spike;
      row.straggler = r->straggler;
    }
    report.rows.push_back(std::move(row));
  }
  for (int n : outlook_gpus)
    report.outlook.push_back(efficiency_at(report, n));
  return report;
}

void add_alpha_beta(FamilyReport& family, const ScalingAnalysis& analysis,
                    const StoredFits& stored) {
  if (auto fits = stored.alpha_beta(analysis.curves)) {
    family.hockney = std::move(fits->per_gpu_count);
    family.ring_all_reduce = std::move(fits->ring_all_reduce);
    family.alpha_beta_source = "fits section";
    return;
  }
  family.hockney = analysis.hockney;
  family.ring_all_reduce = analysis.ring_all_reduce;
  family.alpha_beta_source = "computed";
}

} // namespace

double straggler_ratio(const StragglerRank& s) {
  return s.others_median_s > 0 ? s.median_s / s.others_median_s : 1.0;
}

std::string CurveReport::label() const {
  const std::string params = describe_params(curve().key.params);
  return curve().key.case_name + (params.empty() ? "" : " " + params);
}

EfficiencyEstimate efficiency_at(const CurveReport& curve, int gpus) {
  EfficiencyEstimate estimate;
  estimate.gpus = gpus;
  const Curve& c = curve.curve();
  if (!curve.series || curve.scaling_points() < 2)
    return estimate;
  for (std::size_t i = 0; i < c.gpus.size(); ++i) {
    if (c.gpus[i] != gpus)
      continue;
    if (i < curve.fits.efficiency.value.size() && curve.fits.efficiency.value[i]) {
      estimate.efficiency = curve.fits.efficiency.value[i];
      estimate.from = "measured";
      return estimate;
    }
  }
  if (gpus < curve.series->base_gpus)
    return estimate;
  estimate.extrapolated = gpus > c.gpus.back();
  const double x1 = curve.series->x1;
  const auto& usl = curve.fits.usl;
  const auto& amdahl = curve.fits.amdahl;
  if (usl && usl->ok && x1 > 0) {
    estimate.efficiency = usl->throughput(gpus) / (gpus * x1);
    estimate.from = "USL";
  } else if (amdahl && amdahl->ok) {
    estimate.efficiency = amdahl_speedup(amdahl->serial_fraction, gpus) / gpus;
    estimate.from = "Amdahl";
  }
  return estimate;
}

std::vector<FamilyReport> build_family_reports(const ResultsFile& results,
                                               const ScalingAnalysis& analysis,
                                               const std::vector<int>& outlook_gpus) {
  // The families' order, then suites of no family in the order of their first record.
  std::vector<std::string> suites;
  for (const auto& family : FamilyRegistry::instance().all())
    suites.push_back(family->suite());
  for (const Record& r : results.records) {
    if (std::find(suites.begin(), suites.end(), r.suite) == suites.end())
      suites.push_back(r.suite);
  }
  const std::vector<CurveFits>& curves = analysis.curves;
  const StoredFits stored(results.fits);
  const RecordIndex index(results);

  std::vector<FamilyReport> families;
  for (const auto& suite : suites) {
    FamilyReport family;
    family.suite = suite;
    bool has_records = false;
    for (const Record& r : results.records) {
      if (r.suite != suite)
        continue;
      has_records = true;
      if (r.status == RecordStatus::skipped || r.status == RecordStatus::failed) {
        family.not_run.push_back({r.case_name, r.params, r.gpus, r.status, r.reason});
      } else if (r.straggler) {
        family.stragglers.push_back(
            {r.case_name, r.params, r.gpus, r.nodes, *r.straggler, r.stats.spike});
      }
    }
    if (!has_records)
      continue;
    std::stable_sort(family.stragglers.begin(), family.stragglers.end(),
                     [](const StragglerRow& a, const StragglerRow& b) {
                       return straggler_ratio(a.straggler) < straggler_ratio(b.straggler);
                     });
    std::vector<std::size_t> of_suite;
    for (std::size_t i = 0; i < curves.size(); ++i) {
      if (curves[i].curve.key.suite == suite)
        of_suite.push_back(i);
    }
    family.curves_total = of_suite.size();
    for (std::size_t i : shown_curves(curves, of_suite)) {
      family.curves.push_back(curve_report(curves[i], stored, index, outlook_gpus));
    }
    if (suite == suite_names::kCollectives && !of_suite.empty())
      add_alpha_beta(family, analysis, stored);
    families.push_back(std::move(family));
  }
  return families;
}

} // namespace cb::report
