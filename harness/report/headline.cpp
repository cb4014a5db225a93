#include "report/headline.hpp"

#include <algorithm>
#include <cmath>
#include <set>

#include "analysis/cost.hpp"
#include "analysis/record_values.hpp"
#include "analysis/workload_flags.hpp"
#include "core/error.hpp"
#include "report/per_rank_spread.hpp"
#include "report/report_format.hpp"
#include "results/suite_names.hpp"

namespace cb::report {
namespace {

// The configuration of a case that speaks for it: most GPU counts, then the best figure at the
// largest of them.
const CurveReport* representative(const FamilyReport& family, const std::string& case_name) {
  const CurveReport* best = nullptr;
  for (const auto& c : family.curves) {
    if (c.curve().key.case_name != case_name || c.scaling_points() < 2)
      continue;
    if (!best || c.scaling_points() > best->scaling_points() ||
        (c.scaling_points() == best->scaling_points() &&
         c.curve().value.back() > best->curve().value.back())) {
      best = &c;
    }
  }
  return best;
}

// Measured counts, then powers of two beyond them, up to the horizon.
std::vector<int> limit_candidates(const CurveReport& c, const std::vector<int>& outlook_gpus,
                                  int horizon) {
  std::set<int> counts(c.curve().gpus.begin(), c.curve().gpus.end());
  const int largest_measured = c.curve().gpus.back();
  for (long long n = 1; n <= horizon; n *= 2) {
    if (n > largest_measured)
      counts.insert(static_cast<int>(n));
  }
  for (int n : outlook_gpus) {
    if (n > largest_measured)
      counts.insert(n);
  }
  return {counts.begin(), counts.end()};
}

// --predict-to, and never short of a count the headline gives.
int horizon_of(const ReportOptions& options) {
  int horizon = options.step.predict_to;
  for (int n : options.outlook_gpus)
    horizon = std::max(horizon, n);
  return horizon;
}

PartOutlook outlook_of(const CurveReport& c, const ReportOptions& options) {
  PartOutlook part;
  part.suite = c.curve().key.suite;
  part.case_name = c.curve().key.case_name;
  part.label = describe_params(c.curve().key.params);
  part.metric = c.curve().key.metric;
  part.largest_measured_gpus = c.curve().gpus.back();
  part.efficiency_at_largest = efficiency_at(c, part.largest_measured_gpus).efficiency;
  part.outlook = c.outlook;
  for (int n : limit_candidates(c, options.outlook_gpus, horizon_of(options))) {
    const EfficiencyEstimate e = efficiency_at(c, n);
    if (e.efficiency && *e.efficiency < options.limit_efficiency) {
      part.limit = e;
      break;
    }
  }
  return part;
}

std::optional<double> last_outlook(const PartOutlook& p) {
  for (auto it = p.outlook.rbegin(); it != p.outlook.rend(); ++it) {
    if (it->efficiency)
      return it->efficiency;
  }
  return p.efficiency_at_largest;
}

bool limits_before(const PartOutlook& a, const PartOutlook& b) {
  if (a.limit.has_value() != b.limit.has_value())
    return a.limit.has_value();
  if (a.limit) {
    if (a.limit->gpus != b.limit->gpus)
      return a.limit->gpus < b.limit->gpus;
    return *a.limit->efficiency < *b.limit->efficiency;
  }
  const auto ea = last_outlook(a), eb = last_outlook(b);
  if (ea.has_value() != eb.has_value())
    return ea.has_value();
  return ea && *ea < *eb;
}

bool has_usable(const ResultsFile& results, const std::string& suite, const std::string& case_name,
                const std::vector<const char*>& metrics, int min_gpus) {
  return std::any_of(results.records.begin(), results.records.end(), [&](const Record& r) {
    if (r.suite != suite || r.case_name != case_name || !is_usable(r) || r.gpus < min_gpus) {
      return false;
    }
    return std::any_of(metrics.begin(), metrics.end(), [&](const char* m) {
      const auto it = r.metrics.find(m);
      return it != r.metrics.end() && it->is_number() && it->get<double>() > 0;
    });
  });
}

} // namespace

PredictionConfig default_training_step() {
  PredictionConfig config;
  config.model_params = 7e9;
  config.tokens_per_gpu = 16384;
  config.overlap = 0;
  config.bytes_per_step = kInputBytesPerToken * config.tokens_per_gpu;
  config.predict_to = 1024;
  return config;
}

std::vector<int> default_outlook_gpus(int predict_to) {
  std::vector<int> counts;
  if (predict_to > 64)
    counts.push_back(64);
  counts.push_back(predict_to);
  return counts;
}

std::vector<PartOutlook> rank_parts(const std::vector<FamilyReport>& families,
                                    const ReportOptions& options) {
  std::vector<PartOutlook> parts;
  for (const auto& family : families) {
    std::vector<std::string> cases;
    for (const auto& c : family.curves) {
      const auto& name = c.curve().key.case_name;
      if (std::find(cases.begin(), cases.end(), name) == cases.end())
        cases.push_back(name);
    }
    for (const auto& name : cases) {
      if (const CurveReport* c = representative(family, name)) {
        parts.push_back(outlook_of(*c, options));
      }
    }
  }
  std::stable_sort(parts.begin(), parts.end(), limits_before);
  return parts;
}

CostOutlook cost_outlook(int gpus, double efficiency, const ReportOptions& options) {
  CostOutlook outlook;
  outlook.gpus = gpus;
  outlook.efficiency = efficiency;
  outlook.overhead = 1 / efficiency - 1;
  // Above 1 the job beats the ideal; cost.hpp prices the usual case, E in (0, 1].
  if (options.gpu_hours && efficiency > 0 && efficiency <= 1) {
    CostInputs inputs;
    inputs.gpu_hours = *options.gpu_hours;
    inputs.price_per_gpu_hour = options.price.value_or(1);
    inputs.gpus = gpus;
    inputs.efficiency = efficiency;
    const CostEstimate estimate = estimate_cost(inputs);
    outlook.overhead = estimate.overhead_fraction;
    outlook.wall_hours = estimate.wall_hours;
    if (options.price) {
      outlook.cost = estimate.cost;
      outlook.ideal_cost = estimate.ideal_cost;
    }
  }
  return outlook;
}

namespace {

// A rank's spread under kStragglerShare of the median: the rank, its lowest share and where, once
// per rank in `found`.
void note_straggler(const std::optional<PerRankSpread>& s, const std::string& where,
                    std::vector<Straggler>& found) {
  if (!s || s->includes_waiting || s->count < 2 || !(s->median > 0) ||
      !(s->slowest_share() < kStragglerShare))
    return;
  const std::string rank = describe_rank(s->slowest);
  auto it = std::find_if(found.begin(), found.end(),
                         [&](const Straggler& g) { return g.rank == rank; });
  if (it == found.end())
    it = found.insert(found.end(), Straggler{rank, 1, {}});
  it->share = std::min(it->share, s->slowest_share());
  if (std::find(it->parts.begin(), it->parts.end(), where) == it->parts.end())
    it->parts.push_back(where);
}

void slowest_first(std::vector<Straggler>& found) {
  std::stable_sort(found.begin(), found.end(),
                   [](const Straggler& a, const Straggler& b) { return a.share < b.share; });
}

} // namespace

std::vector<Straggler> find_stragglers(const std::vector<FamilyReport>& families) {
  std::vector<Straggler> found;
  for (const auto& family : families) {
    for (const auto& c : family.curves) {
      for (const auto& row : c.rows) {
        // A collective's lowest own figure is a rank that waited (note_straggler skips it); the
        // rank waited for is in the record's straggler, reported on its own.
        note_straggler(row.spread,
                       family.suite + "/" + c.curve().key.case_name + " on " +
                           std::to_string(row.gpus) + " GPUs",
                       found);
      }
    }
  }
  slowest_first(found);
  return found;
}

void add_step_stragglers(const ResultsFile& results, std::vector<Straggler>& found) {
  // The measured training step has no curve of its own figures; each rank's GEMM rate in the step
  // (per_rank gflops: the same work on every GPU) says which GPU the others wait for.
  for (const auto& r : results.records) {
    if (r.suite != suite_names::kWorkload || r.status == RecordStatus::skipped ||
        r.status == RecordStatus::failed)
      continue;
    auto s = per_rank_spread(r, "gflops");
    if (s && s->figure != "gflops")
      s.reset(); // another per-rank figure: not the step's GEMM rate
    note_straggler(s, r.suite + "/" + r.case_name + " on " + std::to_string(r.gpus) + " GPUs",
                   found);
  }
  slowest_first(found);
}

std::vector<WaitedFor> find_waited_for(const std::vector<FamilyReport>& families) {
  std::vector<WaitedFor> found;
  for (const auto& family : families) {
    for (const auto& row : family.stragglers) {
      const StragglerRank& s = row.straggler;
      auto it = std::find_if(found.begin(), found.end(), [&](const WaitedFor& w) {
        return w.rank.rank == s.rank && w.rank.host == s.host && w.rank.device == s.device;
      });
      if (it == found.end())
        it = found.insert(found.end(), WaitedFor{s, 0, 2.0, {}});
      ++it->records;
      const double ratio = straggler_ratio(s);
      if (ratio < it->worst_ratio) {
        it->worst_ratio = ratio;
        it->rank = s;
        const std::string params = describe_params(row.params);
        it->worst_where = family.suite + "/" + row.case_name +
                          (params.empty() ? "" : " " + params) + " on " + std::to_string(row.gpus) +
                          " GPUs";
      }
    }
  }
  std::stable_sort(found.begin(), found.end(), [](const WaitedFor& a, const WaitedFor& b) {
    if (a.records != b.records)
      return a.records > b.records;
    return a.worst_ratio < b.worst_ratio;
  });
  return found;
}

std::vector<std::string> missing_prediction_parts(const ResultsFile& results) {
  std::vector<std::string> missing;
  if (!has_usable(results, suite_names::kCompute, "gemm", {"tflops", "gflops"}, 1)) {
    missing.push_back("compute/gemm");
  }
  if (!has_usable(results, suite_names::kCollectives, "all_reduce",
                  {"busbw_gbps", "algbw_gbps", "time_us"}, 2)) {
    missing.push_back("collectives/all_reduce");
  }
  return missing;
}

const PartOutlook* Headline::limiting() const {
  return !parts.empty() && parts.front().limit ? &parts.front() : nullptr;
}

namespace {

// Goodput at the counts measured and priced, with the priced counts' efficiencies.
void add_goodput(Headline& h, const ResultsFile& results, const std::string& source,
                 const UsefulWorkSettings& settings) {
  const auto sources = goodput_sources(results, source, settings);
  if (!sources) {
    h.goodput_missing = goodput_not_measured(results, settings);
    return;
  }
  if (h.step_cost)
    h.priced_efficiency.emplace_back(h.step_cost->gpus, h.step_cost->efficiency);
  for (const StepTime& s : h.predicted)
    h.priced_efficiency.emplace_back(s.gpus, s.efficiency);
  std::set<int> counts;
  for (int n : sources->measured_gpus())
    counts.insert(n);
  for (const auto& [gpus, efficiency] : h.priced_efficiency)
    counts.insert(gpus);
  for (int n : counts)
    h.goodput.push_back(goodput_at_scale(*sources, n, settings));
}

Headline headline_without_goodput(const ResultsFile& results, const std::string& source,
                                  const ScalingAnalysis& analysis,
                                  const std::vector<FamilyReport>& families,
                                  const ReportOptions& options) {
  Headline headline;
  headline.limit_efficiency = options.limit_efficiency;
  headline.outlook_gpus = options.outlook_gpus;
  headline.horizon_gpus = horizon_of(options);
  headline.parts = rank_parts(families, options);
  headline.stragglers = find_stragglers(families);
  add_step_stragglers(results, headline.stragglers);
  headline.waited_for = find_waited_for(families);
  headline.missing_parts = missing_prediction_parts(results);
  headline.step =
      validate_step(results, analysis, source, headline.horizon_gpus, options.step.plan_link);
  if (headline.step) {
    ReportOptions priced = options;
    headline.priced_by_default = !options.gpu_hours;
    if (!priced.gpu_hours) {
      priced.gpu_hours = kExampleGpuHours;
      priced.price = kExamplePrice;
    }
    headline.priced_gpu_hours = *priced.gpu_hours;
    headline.priced_price = priced.price.value_or(0);
    const int n = options.outlook_gpus.empty() ? headline.horizon_gpus : options.outlook_gpus.front();
    if (auto e = step_efficiency_at(*headline.step, n, &headline.step_cost_how)) {
      headline.step_cost = cost_outlook(n, *e, priced);
      headline.step_basis = measured_step_basis(*headline.step, n);
    } else if (headline.step->model && !headline.step_cost_how.empty()) {
      headline.step_cost_declined = headline.step_cost_how;
    }
  }
  if (!headline.missing_parts.empty())
    return headline;
  // A measured step speaks for the workload that ran; the default 7B shape, sized for GPUs, would
  // only put a step no reader can use beside it. One the user asked for is kept.
  if (headline.step && !options.step_given)
    return headline;
  PredictionConfig config = options.step;
  config.predict_to = headline.horizon_gpus;
  try {
    headline.prediction = predict_training(results, analysis, config, source);
  } catch (const InputError& e) {
    // The parts are there but could not be modelled (e.g. all_reduce at one message size only).
    headline.prediction_problem = e.what();
    return headline;
  }
  for (int n : options.outlook_gpus) {
    const TrainingStepModel& model = headline.prediction->model;
    if (std::string why = unpriced_across_nodes(model, n); !why.empty()) {
      headline.predicted_declined.emplace_back(n, why);
      continue;
    }
    headline.predicted_basis.push_back(predicted_basis(model, n));
    const StepTime step = predict_step(model, n);
    headline.predicted_cost.push_back(cost_outlook(n, step.efficiency, options));
    headline.predicted.push_back(step);
  }
  return headline;
}

} // namespace

Headline build_headline(const ResultsFile& results, const std::string& source,
                        const ScalingAnalysis& analysis, const std::vector<FamilyReport>& families,
                        const ReportOptions& options) {
  Headline headline = headline_without_goodput(results, source, analysis, families, options);
  add_goodput(headline, results, source, options.goodput);
  return headline;
}

const GoodputAtScale* Headline::goodput_at(int gpus) const {
  for (const auto& g : goodput) {
    if (g.gpus == gpus)
      return &g;
  }
  return nullptr;
}

} // namespace cb::report
