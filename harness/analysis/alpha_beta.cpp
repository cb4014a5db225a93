#include "analysis/alpha_beta.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "analysis/least_squares.hpp"
#include "analysis/record_values.hpp"
#include "results/suite_names.hpp"

namespace cb {
namespace {

struct TimedMessage {
  double bytes;
  double seconds;
  int gpus;
};

struct TwoColumnFit {
  bool ok = false;
  double first = 0, second = 0, r2 = 0;
};

// Relative-error fit of T = c0 * columns[0] + c1 * columns[1] with c0, c1 >= 0.
TwoColumnFit fit_two_columns(const std::vector<double>& c0, const std::vector<double>& c1,
                             const std::vector<double>& seconds, const char* first_name,
                             const char* second_name, std::vector<std::string>& warnings) {
  TwoColumnFit fit;
  std::vector<double> weights;
  for (double t : seconds)
    weights.push_back(1.0 / (t * t));
  auto solution = nonnegative_least_squares({c0, c1}, seconds, weights);
  if (!solution) {
    warnings.push_back("the points do not determine both coefficients");
    return fit;
  }
  fit.ok = true;
  fit.first = solution->coef[0];
  fit.second = solution->coef[1];
  if (solution->held_at_zero[0]) {
    warnings.push_back(std::string("the data put ") + first_name + " below 0: held at 0");
  }
  if (solution->held_at_zero[1]) {
    warnings.push_back(std::string("the data put ") + second_name + " below 0: held at 0");
  }
  std::vector<double> fitted;
  for (std::size_t i = 0; i < seconds.size(); ++i)
    fitted.push_back(fit.first * c0[i] + fit.second * c1[i]);
  fit.r2 = r_squared(seconds, fitted, weights);
  return fit;
}

} // namespace

std::vector<HockneyFit> fit_hockney(const ResultsFile& results) {
  struct Group {
    HockneyFit fit;
    std::vector<TimedMessage> messages;
  };
  std::vector<Group> groups;
  std::map<std::string, std::size_t> index;
  for (const Record& record : results.records) {
    // On one GPU nothing crosses a link: there is no message to model.
    if (record.suite != suite_names::kCollectives || !is_usable(record) || record.gpus < 2)
      continue;
    const auto bytes = message_bytes(record);
    const auto seconds = seconds_per_operation(record);
    if (!bytes || !seconds)
      continue;
    nlohmann::json rest = params_without_size(record.params);
    const std::string id = record.case_name + '\n' + rest.dump() + '\n' +
                           std::to_string(record.gpus) + '\n' + record.tier;
    auto [it, inserted] = index.emplace(id, groups.size());
    if (inserted) {
      HockneyFit fit;
      fit.case_name = record.case_name;
      fit.params = std::move(rest);
      fit.gpus = record.gpus;
      fit.tier = record.tier;
      groups.push_back({std::move(fit), {}});
    }
    groups[it->second].messages.push_back({*bytes, *seconds, record.gpus});
  }
  std::vector<HockneyFit> fits;
  for (auto& group : groups) {
    std::set<double> sizes;
    for (const auto& m : group.messages)
      sizes.insert(m.bytes);
    if (sizes.size() < 2)
      continue;
    HockneyFit& fit = group.fit;
    fit.points = static_cast<int>(group.messages.size());
    fit.min_bytes = *sizes.begin();
    fit.max_bytes = *sizes.rbegin();
    std::vector<double> ones, bytes, seconds;
    for (const auto& m : group.messages) {
      ones.push_back(1.0);
      bytes.push_back(m.bytes);
      seconds.push_back(m.seconds);
    }
    const auto two =
        fit_two_columns(ones, bytes, seconds, "the latency", "the time per byte", fit.warnings);
    fit.ok = two.ok;
    fit.latency_s = two.first;
    fit.seconds_per_byte = two.second;
    fit.r2 = two.r2;
    fits.push_back(std::move(fit));
  }
  return fits;
}

double RingAllReduceFit::time(double bytes, int ranks) const {
  if (ranks < 2)
    return 0;
  const double p = ranks;
  return 2 * (p - 1) * alpha_s + 2 * (p - 1) / p * bytes * beta_s_per_byte;
}

std::vector<RingAllReduceFit> fit_ring_all_reduce(const ResultsFile& results) {
  auto is_all_reduce = [](const Record& r) {
    return r.suite == suite_names::kCollectives && r.case_name == "all_reduce" && is_usable(r) &&
           r.gpus >= 2;
  };
  // nccl-tests quotes out-of-place figures; in-place ones are used only when they are all there is.
  const bool have_out_of_place =
      std::any_of(results.records.begin(), results.records.end(), [&](const Record& r) {
        return is_all_reduce(r) && in_place_flag(r.params) == false;
      });
  std::map<std::string, std::vector<TimedMessage>> by_tier;
  std::vector<std::string> tier_order;
  for (const Record& record : results.records) {
    if (!is_all_reduce(record))
      continue;
    if (have_out_of_place && in_place_flag(record.params).value_or(false))
      continue;
    const auto bytes = message_bytes(record);
    const auto seconds = seconds_per_operation(record);
    if (!bytes || !seconds)
      continue;
    if (!by_tier.count(record.tier))
      tier_order.push_back(record.tier);
    by_tier[record.tier].push_back({*bytes, *seconds, record.gpus});
  }
  std::vector<RingAllReduceFit> fits;
  for (const auto& tier : tier_order) {
    const auto& messages = by_tier[tier];
    RingAllReduceFit fit;
    fit.tier = tier;
    fit.points = static_cast<int>(messages.size());
    std::vector<double> latency_column, bandwidth_column, seconds;
    for (const auto& m : messages) {
      const double p = m.gpus;
      latency_column.push_back(2 * (p - 1));
      bandwidth_column.push_back(2 * (p - 1) / p * m.bytes);
      seconds.push_back(m.seconds);
      if (std::find(fit.gpus.begin(), fit.gpus.end(), m.gpus) == fit.gpus.end()) {
        fit.gpus.push_back(m.gpus);
      }
    }
    std::sort(fit.gpus.begin(), fit.gpus.end());
    if (messages.size() < 2) {
      fit.warnings.push_back("needs at least 2 all_reduce points, have " +
                             std::to_string(messages.size()));
    } else {
      const auto two =
          fit_two_columns(latency_column, bandwidth_column, seconds, "alpha", "beta", fit.warnings);
      fit.ok = two.ok;
      fit.alpha_s = two.first;
      fit.beta_s_per_byte = two.second;
      fit.r2 = two.r2;
    }
    fits.push_back(std::move(fit));
  }
  return fits;
}

} // namespace cb
