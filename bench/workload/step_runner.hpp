#pragma once
// One rank's data-parallel training step on one backend, as workload/data_parallel_step times it:
// the host's (host_step.hpp: OpenBLAS GEMMs, MPI all-reduce buckets) or a GPU backend's, which
// registers itself here (bench/cuda/data_parallel_step_cuda.cpp for cuda), so the case, its
// sampling, its checks and its record are written once.
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "runtime/case.hpp"
#include "workload/step_parts.hpp"

namespace cb {

// Steps before the measured ones: first touch, the all-reduce's connections, the loader's ring
// filling, the GPU's clocks. (The planner counts them: workload/family.cpp.)
inline constexpr int kWarmupSteps = 2;

class BatchLoader;

class StepRunner {
public:
  virtual ~StepRunner() = default;
  // What the set-up needs of every rank together (a communicator, an agreed GEMM algorithm),
  // called once every rank has built its runner. Collective over ctx.comm.
  virtual void prepare(const CaseContext& /*ctx*/) {}
  // Runs step `step` whole: its batch (from the loader, when there is one), forward, backward
  // with the buckets' all-reduce, the update; says where its time went. A read error of the
  // loader goes to *read_error, and no later step waits for input.
  virtual StepParts run_step(std::uint64_t step, std::string* read_error) = 0;
  // Forgets what the steps so far measured of the buckets and GEMMs (the warm-up steps').
  virtual void reset_measurements() = 0;
  // The bytes of each gradient bucket, in the order they are all-reduced.
  virtual std::vector<double> bucket_bytes() const = 0;
  // Per bucket, the share of backward's compute done when its gradients were complete: the mean
  // over the steps since reset_measurements().
  virtual std::vector<double> bucket_ready_share() const = 0;
  // All-reduced gradient values checked, and found wrong: over every step on the host; over the
  // warm-up steps on cuda, whose value samples are device-to-host copies that the measured steps
  // must not time as communication.
  virtual long long gradient_values_checked() const = 0;
  virtual long long gradient_values_wrong() const = 0;
  // What the record says of this backend's step beyond the parts (GEMM library, precision, GEMM
  // figures); rank 0's is kept. Collective: every rank calls it.
  virtual nlohmann::json record_extra(const CaseContext& ctx) = 0;
  // FLOP of one step's GEMMs (6 x params x tokens).
  virtual double flops_per_step() const = 0;
};

// The step of a backend other than the host: registered by the backend's own files.
struct StepBackend {
  // The checks made before anything runs, for `local_ranks` ranks on this node (the model in
  // device memory): InputError naming the flag.
  std::function<void(const RunConfig& config, int local_ranks)> check_input;
  // The step's parameters (its shape), the same on every rank.
  std::function<nlohmann::json(const RunConfig& config)> params;
  // This rank's runner, collective over ctx.comm; `loader` is null when no input is read.
  std::function<std::unique_ptr<StepRunner>(const CaseContext& ctx, const nlohmann::json& params,
                                            BatchLoader* loader)>
      make;
  // Why the step cannot run on this backend in this build or job ("" when it can).
  std::function<std::string(const Backend& backend, const Communicator& world)> why_not;
};

// The backend the step runs on: the run's (RunConfig::backend_kind), or, where the options were
// read before any launcher resolved "auto" (a listing of instances, a test), the one this
// machine would pick.
BackendKind step_backend(const RunConfig& config);

// The steps of the backends other than the host, by the kind of backend they run on.
class StepBackendRegistry {
public:
  static StepBackendRegistry& instance();
  void add(BackendKind backend, StepBackend step);
  const StepBackend* find(BackendKind backend) const; // nullptr when none

private:
  std::map<BackendKind, StepBackend> backends_;
};

} // namespace cb
