#pragma once
// What `clusterbench run` was asked to do, parsed and validated before any MPI job starts.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "runtime/axis_values.hpp"
#include "runtime/backend_kind.hpp"
#include "runtime/engine.hpp"

namespace cb {

struct RunConfig {
  std::vector<std::string> suites; // empty = every suite
  std::vector<std::string> cases;  // empty = every case of the chosen suites
  std::string gpus = "auto";       // "auto" or "1,2,4"
  std::string backend = "auto";    // as asked: auto | host | cuda
  // The backend in use, resolved once: set at parsing for a named backend, by the launcher for
  // "auto" (nullopt until then). Cases ask this, never the name.
  std::optional<BackendKind> backend_kind;
  bool quick = false;
  std::string out;             // results file
  int np = 0;                  // ranks to launch when not already under MPI (0 = default)
  bool single_process = false; // ranks are threads of this process: no mpirun, no MPI
  double timeout_s = 600;      // watchdog: one record may not take longer
  // The axes' values set by --axis and the family flags (--dtypes, --gemm-sizes, ...), checked
  // (runtime/axis_values.hpp); an axis nobody set takes its declared default.
  std::vector<AxisSetting> axis_settings;
  // The families' scalar options given on the command line (--file-bytes, --pairs, ...), by flag
  // name, parsed by their declarations (runtime/family_option.hpp). A case reads one through its
  // declaration, which applies the default: kFileBytes.value(config).
  std::map<std::string, nlohmann::json> options;
  MeasureSettings measure;
  // planning (harness/planning): a time budget for the whole sweep (0 = none) and the spec whose
  // data-sheet figures the cuda backend's time model uses (empty = h200-sxm).
  double budget_s = 0;
  std::string plan_spec;
  double plan_link_bps = 0; // --plan-link: inter-node bytes/s per rank the plan assumes (0: model's)
  std::string plan_link_text; // --plan-link as typed
  // --plan-from: an earlier results file of this cluster whose measured link the plan uses
  // (planning/measured_link.hpp), read once by the launching process and by rank 0.
  std::string plan_from;
  // Where plan_link_bps comes from, in words, once resolved (resolve_plan_link); "" with no rate.
  std::string plan_link_source;

  // backend_kind, which the launcher resolved before any case runs (std::logic_error before).
  BackendKind backend_in_use() const;
  bool wants_suite(const std::string& suite) const;
  bool wants_case(const std::string& suite, const std::string& name) const;
};

// The measurement profile of --quick: fewer, shorter samples, for smoke tests and CI.
MeasureSettings quick_measure_settings();

} // namespace cb
