#include "runtime/sweep.hpp"

#include <algorithm>
#include <chrono>
#include <ostream>

#include "core/error.hpp"
#include "core/units.hpp"
#include "runtime/console_printer.hpp"

namespace cb {

SweepRunner::SweepRunner(Backend& backend, const Communicator& world, const RunConfig& config,
                         const NodeLayout& layout, const std::vector<nlohmann::json>& world_devices,
                         std::vector<int> counts)
    : backend_(backend), world_(world), config_(config), layout_(layout),
      world_devices_(world_devices), counts_(std::move(counts)) {}

std::vector<int> SweepRunner::counts_for(const BenchmarkCase& c) const {
  std::vector<int> out;
  for (int n : counts_) {
    if (n >= c.min_gpus())
      out.push_back(n);
  }
  if (c.largest_count_only() && !out.empty())
    out = {out.back()};
  return out;
}

std::string SweepRunner::why_not_run(const BenchmarkCase& c) const {
  if (counts_for(c).empty()) {
    return "needs at least " + std::to_string(c.min_gpus()) +
           " ranks; this run's largest count is " + std::to_string(counts_.back());
  }
  // A case with nothing to run on this backend (a GPU-only case on the host) is passed over
  // quietly in a whole-family sweep, but one asked for by name must not vanish.
  if (c.instances(config_).empty()) {
    return config_.cases.empty()
               ? ""
               : "nothing to run on the " + backend_.name() + " backend with these options";
  }
  // A case this backend cannot run at all in this job says so once, not in every instance.
  return c.why_not_on(backend_, config_.backend_in_use(), world_);
}

void SweepRunner::wait_idle() const {
  world_.idle_barrier();
}

int SweepRunner::planned_phase(const BenchmarkCase& c, int n) const {
  for (std::size_t i = 0; i < plan_.size(); ++i) {
    if (plan_[i].suite == c.suite() && plan_[i].name == c.name() && plan_[i].gpus == n)
      return static_cast<int>(i);
  }
  return -1;
}

namespace {

// A communicator per GPU count over that count's members (MPI_Comm_split is collective: every
// rank takes part in every split, members or not).
std::vector<Communicator> split_per_count(const Communicator& world,
                                          const std::vector<std::vector<int>>& members) {
  std::vector<Communicator> comms;
  for (const auto& m : members) {
    const auto pos = std::find(m.begin(), m.end(), world.rank());
    const bool member = pos != m.end();
    comms.push_back(world.split(member ? 0 : -1, member ? static_cast<int>(pos - m.begin()) : 0));
  }
  return comms;
}

// One record written, counted in the run's closing tally (SweepSummary).
void count_record(SweepSummary& summary, const Record& r) {
  ++summary.records;
  if (r.status == RecordStatus::noisy) {
    ++summary.noisy;
    if (r.extra.value("stop", "") == "settled")
      ++summary.settled;
    summary.noisy_cv.push_back(r.stats.cv);
  }
  if (r.status == RecordStatus::skipped)
    ++summary.skipped;
  if (r.status == RecordStatus::failed)
    ++summary.failed;
  if (r.status == RecordStatus::failed && r.check != DataCheck::fail)
    ++summary.failed_to_run;
  if (r.check == DataCheck::fail)
    ++summary.check_failed;
}

} // namespace

long SweepRunner::instances_to_run(
    const std::vector<std::unique_ptr<BenchmarkCase>>& cases) const {
  long total = 0;
  for (const auto& c : cases) {
    for (int n : counts_for(*c)) {
      const int phase = planned_phase(*c, n);
      total += static_cast<long>(phase >= 0 ? plan_[static_cast<std::size_t>(phase)].instances.size()
                                            : c->instances(config_).size());
    }
  }
  return total;
}

SweepSummary SweepRunner::run(std::vector<std::unique_ptr<BenchmarkCase>>& cases,
                              IncrementalResultsWriter* writer, std::ostream* table) {
  SweepSummary summary;
  const bool root = world_.rank() == 0;
  summary.phase_seconds.assign(plan_.size(), -1.0);
  Progress progress(instances_to_run(cases), root);
  Watchdog watchdog(config_.timeout_s, world_.rank());

  // One sub-communicator per count, made once and reused by every case.
  std::vector<std::vector<int>> members;
  for (int n : counts_)
    members.push_back(members_for_count(layout_, n));
  std::vector<Communicator> comms = split_per_count(world_, members);

  // The last case that runs at each count: after it the count's communicators are released (an
  // NCCL communicator per count held GPU memory all run), on every member in the cases' order.
  std::vector<std::size_t> last_case_of_count(counts_.size(), 0);
  for (std::size_t i = 0; i < cases.size(); ++i) {
    for (int n : counts_for(*cases[i]))
      last_case_of_count[static_cast<std::size_t>(std::find(counts_.begin(), counts_.end(), n) -
                                                  counts_.begin())] = i;
  }
  auto release_after = [&](std::size_t case_index) {
    for (std::size_t k = 0; k < counts_.size(); ++k) {
      if (last_case_of_count[k] == case_index && comms[k].valid())
        backend_.release_collectives(comms[k]);
    }
  };

  bool collectives_prepared = false;
  for (std::size_t case_index = 0; case_index < cases.size(); ++case_index) {
    auto& c = cases[case_index];
    if (const std::string why = why_not_run(*c); !why.empty()) {
      // Said in the results, not only by a missing row: a skipped record at the largest count.
      if (root) {
        const CaseContext ctx{backend_,      comms.back(),   config_,
                              layout_,       members.back(), placement_of(layout_, members.back()),
                              world_devices_};
        Record r = ctx.new_record(c->suite(), c->name(), nlohmann::json::object());
        CaseContext::skip(r, why);
        writer->append(r);
        ++summary.records;
        ++summary.skipped;
        if (table) {
          *table << "# " << c->suite() << " " << c->name() << ": skipped: " << why << "\n";
          table->flush();
        }
      }
      release_after(case_index);
      continue;
    }
    // A fresh printer per case: table state (a skip reason said once) never leaks between cases.
    const auto printer = root ? PrinterRegistry::instance().create(c->suite()) : nullptr;
    if (c->uses_collectives() && !collectives_prepared && !c->instances(config_).empty()) {
      WatchdogScope guard(watchdog, "making the backend's communicators for every GPU count");
      backend_.prepare_collectives(world_, comms);
      collectives_prepared = true;
    }
    for (int n : counts_for(*c)) {
      const std::size_t index =
          static_cast<std::size_t>(std::find(counts_.begin(), counts_.end(), n) - counts_.begin());
      const Communicator& comm = comms[index];
      const int phase = planned_phase(*c, n);
      const auto phase_start = std::chrono::steady_clock::now();
      // Rank 0 takes part in every count, so its clock spans the whole phase, waits included.
      auto end_phase = [&] {
        if (root && phase >= 0) {
          summary.phase_seconds[static_cast<std::size_t>(phase)] =
              std::chrono::duration<double>(std::chrono::steady_clock::now() - phase_start)
                  .count();
        }
      };
      if (!comm.valid()) {
        wait_idle();
        continue;
      }
      CaseContext ctx{backend_,      comm,           config_,
                      layout_,       members[index], placement_of(layout_, members[index]),
                      world_devices_};
      const auto instances = c->instances(config_);
      if (instances.empty()) { // the case has nothing to run on this backend or with these flags
        wait_idle();
        end_phase();
        continue;
      }
      // The instances this phase runs, each with its engine settings: the plan's, else all.
      std::vector<std::pair<std::size_t, MeasureSettings>> chosen;
      if (phase >= 0) {
        for (const auto& [i, settings] : plan_[static_cast<std::size_t>(phase)].instances) {
          if (i < instances.size())
            chosen.emplace_back(i, settings);
        }
      } else {
        for (std::size_t i = 0; i < instances.size(); ++i)
          chosen.emplace_back(i, config_.measure);
      }
      if (root) {
        progress.stage(c->suite() + " " + c->name() + " on " + std::to_string(n));
        progress.clear();
        printer->heading(*table, TableHeading{c->suite(), c->name(), backend_.name(),
                                              ctx.placement.tier(), comm.size(),
                                              ctx.placement.nodes});
        table->flush();
      }
      for (const auto& [instance, settings] : chosen) {
        const nlohmann::json& params = instances[instance];
        RunConfig instance_config = config_;
        instance_config.measure = settings;
        const CaseContext instance_ctx{backend_,       comm,          instance_config,
                                       layout_,        members[index], ctx.placement,
                                       world_devices_, &watchdog};
        std::vector<Record> records;
        {
          WatchdogScope guard(watchdog, c->suite() + "/" + c->name() + " " + params.dump() +
                                            " on " + std::to_string(n) + " ranks");
          try {
            records = run_instance(*c, instance_ctx, params);
          } catch (const Error& e) {
            // A device or library error (CUDA, NCCL, cuBLASLt, MPI), or another rank's: the other
            // ranks may wait for this one inside a collective, so the job ends (exit 3). When the
            // rank keeping the results saw it, the file ends with the failed record and why.
            if (root && writer) {
              Record failed = instance_ctx.new_record(c->suite(), c->name(), params);
              failed.status = RecordStatus::failed;
              failed.check = DataCheck::skipped;
              failed.reason = e.what();
              writer->append(failed);
            }
            throw;
          }
        }
        if (!root)
          continue;
        for (const auto& r : records) {
          writer->append(r);
          count_record(summary, r);
        }
        progress.clear();
        printer->rows(*table, records);
        table->flush();
        progress.advance();
      }
      wait_idle();
      end_phase();
    }
    release_after(case_index);
  }
  return summary;
}

} // namespace cb
