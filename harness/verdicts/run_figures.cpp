#include "verdicts/run_figures.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <set>
#include <system_error>

#include "core/error.hpp"
#include "core/stats.hpp"
#include "verdicts/verdict_input.hpp"

namespace cb {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

std::set<std::string> case_ids(const RunFigures& run) {
  std::set<std::string> ids;
  for (const auto& c : run.measured)
    ids.insert(c.key.id());
  for (const auto& u : run.unmeasured)
    ids.insert(u.key.id());
  return ids;
}

std::string describe_id(const RunFigures& run, const std::string& id) {
  if (const CaseFigures* c = run.find(id))
    return describe_case(c->key);
  for (const auto& u : run.unmeasured) {
    if (u.key.id() == id)
      return describe_case(u.key);
  }
  return "?";
}

// A path in a message: its end, which names the run, when the whole would crowd out the rest of
// the one line an error gets.
std::string short_path(const std::string& path) {
  constexpr std::size_t kKeep = 60;
  return path.size() <= kKeep ? shown(path, kKeep)
                              : "..." + shown(path.substr(path.size() - kKeep), kKeep);
}

// Throws when `run` does not hold the cases and backend of `first`.
void require_same_cases(const RunFigures& first, const RunFigures& run, const std::string& flag,
                        bool same_cases) {
  if (run.backend != first.backend) {
    throw InputError(flag + ": the runs of one side must share a backend: " + short_path(run.path) +
                     " ran on " + shown(run.backend, 20) + ", " + short_path(first.path) + " on " +
                     shown(first.backend, 20));
  }
  if (!same_cases)
    return;
  const std::set<std::string> a = case_ids(first), b = case_ids(run);
  auto differ = [&](const RunFigures& with, const RunFigures& without, const std::string& id) {
    return InputError(flag + ": the runs of one side must hold the same cases and GPU counts: " +
                      short_path(without.path) + " lacks " + describe_id(with, id) + " of " +
                      short_path(with.path));
  };
  for (const auto& id : b) {
    if (!a.count(id))
      throw differ(run, first, id);
  }
  for (const auto& id : a) {
    if (!b.count(id))
      throw differ(first, run, id);
  }
}

} // namespace

const CaseFigures* RunFigures::find(const std::string& id) const {
  auto it = position.find(id);
  return it == position.end() ? nullptr : &measured[it->second];
}

RunFigures summarize_run(const ResultsFile& results, const std::string& path) {
  RunFigures run;
  run.path = path;
  auto backend = results.run.find("backend");
  run.backend =
      backend != results.run.end() && backend->is_string() ? backend->get<std::string>() : "-";
  CaseIndex index = index_cases(results);
  run.unmeasured = std::move(index.unmeasured);
  for (const MeasuredCase& c : index.measured) {
    CaseFigures f;
    f.key = c.key;
    f.samples = c.samples_s.size();
    f.noisy = c.noisy;
    const bool timed = !c.samples_s.empty() && c.records_without_samples == 0;
    f.median_time_s = timed ? median(c.samples_s) : kNaN;
    for (const auto& metric : headline_metrics()) {
      const bool everywhere =
          !c.record_metrics.empty() &&
          std::all_of(c.record_metrics.begin(), c.record_metrics.end(), [&](const auto& m) {
            auto it = m.find(metric.name);
            return it != m.end() && it->is_number();
          });
      if (everywhere)
        f.headline_medians[metric.name] = median_metric(c, metric.name);
    }
    run.position.emplace(f.key.id(), run.measured.size());
    run.measured.push_back(std::move(f));
  }
  return run;
}

RunFigures load_run_figures(const std::string& path) {
  return summarize_run(load_verdict_input(path), path);
}

std::vector<std::string> run_files(const std::string& path, const std::string& flag) {
  std::error_code ec;
  if (!std::filesystem::is_directory(path, ec))
    return {path};
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(path, ec)) {
    const std::string name = entry.path().filename().string();
    std::error_code type_ec;
    const bool regular = entry.is_regular_file(type_ec) && !entry.is_symlink(type_ec);
    const bool json_name =
        name.size() > 5 && name.front() != '.' && name.compare(name.size() - 5, 5, ".json") == 0;
    if (!regular || !json_name) {
      throw InputError(flag + " " + shown(path, 100) + ": holds " + shown(name, 60) +
                       ", which is not a run (a regular file named *.json): refused");
    }
    files.push_back(entry.path().string());
  }
  if (ec)
    throw InputError(flag + " " + shown(path, 100) + ": cannot list: " + ec.message());
  if (files.empty())
    throw InputError(flag + " " + shown(path, 100) + ": holds no runs (*.json)");
  std::sort(files.begin(), files.end());
  return files;
}

RunSide load_side(const std::vector<std::string>& paths, const std::string& flag,
                  const ResultsFile* first, bool same_cases) {
  RunSide side;
  for (const auto& path : paths) {
    side.runs.push_back(first && side.runs.empty() ? summarize_run(*first, path)
                                                   : load_run_figures(path));
    if (side.runs.size() > 1)
      require_same_cases(side.runs.front(), side.runs.back(), flag, same_cases);
  }
  return side;
}

double figure_of(const CaseFigures& c, const std::string& quantity) {
  if (quantity == kTimeQuantity)
    return c.median_time_s;
  auto it = c.headline_medians.find(quantity);
  return it == c.headline_medians.end() ? kNaN : it->second;
}

std::string shared_quantity(const std::vector<const CaseFigures*>& figures) {
  const bool timed = std::all_of(figures.begin(), figures.end(), [](const CaseFigures* f) {
    return std::isfinite(f->median_time_s);
  });
  if (timed)
    return kTimeQuantity;
  for (const auto& metric : headline_metrics()) {
    const bool everywhere = std::all_of(figures.begin(), figures.end(), [&](const CaseFigures* f) {
      return f->headline_medians.count(metric.name) > 0;
    });
    if (everywhere)
      return metric.name;
  }
  return {};
}

Better better_of(const std::string& quantity) {
  for (const auto& metric : headline_metrics()) {
    if (metric.name == quantity)
      return metric.better;
  }
  return Better::lower; // time_s
}

} // namespace cb
