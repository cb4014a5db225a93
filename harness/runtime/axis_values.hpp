#pragma once
// The values a run gives each declared axis (runtime/axis.hpp): what `--axis` or the family flag
// set, else the axis' default for the backend kind and --quick; and the instances of a case as
// every combination of them. The settings are checked once, in the launching process, before any
// rank starts (check_axis_settings), so a bad value is one line and exit 2.
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "runtime/axis.hpp"

namespace cb {

struct RunConfig;
class BenchmarkCase;

// One override as the user gave it.
struct AxisSetting {
  std::string flag;  // "--axis", or the family flag that spells the axis ("--dtypes")
  std::string scope; // --axis CASE.NAME=...: that case only; "" = every selected case
  std::string axis;  // --axis: the axis' name; a family flag: "" (it names the axis itself)
  std::string text;  // the values as typed
  // The flag that declares a family flag's axis (Axis::flag) when it is not `flag` itself:
  // --max-bytes and --step-factor are spellings of the axis --min-bytes declares.
  std::string spelling_of;

  bool applies_to(const std::string& case_name, const Axis& a) const;
};

// Parses one `--axis [CASE.]NAME=VALUES`; throws InputError naming --axis.
AxisSetting parse_axis_flag(const std::string& text);

// The setting that applies to `axis` of case `case_name`, or nullptr.
const AxisSetting* axis_setting_for(const std::string& case_name, const Axis& axis,
                                    const RunConfig& config);
// The values of `axis` of case `case_name` in this run: the setting's, else the default for the
// run's backend kind and profile; empty for a computed default nobody overrode (the case works
// it out).
std::vector<nlohmann::json> axis_values(const std::string& case_name, const Axis& axis,
                                        const RunConfig& config);
// The values of the axis named `name` among `axes` (InputError-free: the name must be declared).
std::vector<nlohmann::json> axis_values(const std::string& case_name,
                                        const std::vector<Axis>& axes, const std::string& name,
                                        const RunConfig& config);
// Every combination of the axes' values, the first axis outermost; axes without values (computed
// defaults) are left out for the case to fill in.
std::vector<nlohmann::json> axis_product(const std::string& case_name,
                                         const std::vector<Axis>& axes, const RunConfig& config);

// The most instances one case may make: past it a value list is a typo, not a sweep.
constexpr std::size_t kMaxCaseInstances = 100000;

// Throws InputError (one line naming the flag and the axis) for an --axis that no selected case
// has, a value outside an axis' type or range, an axis set twice, or a case with more than
// kMaxCaseInstances combinations.
void check_axis_settings(const RunConfig& config,
                         const std::vector<std::unique_ptr<BenchmarkCase>>& selected);

} // namespace cb
