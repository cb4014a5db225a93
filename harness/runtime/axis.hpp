#pragma once
// A case's parameters, declared once where the case is (nvbench's axes): name, type, the values
// a run makes by default (per backend kind, and under --quick), the family flag that spells it
// and its help. The engine expands instances from them (runtime/axis_values.hpp), `--axis` and
// the family flags override them, `run --list` and `run --help` print them: one declaration, so
// the help, the defaults and the instances cannot drift apart.
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace cb {

enum class AxisType {
  integer, // whole numbers in [min, max]
  size,    // bytes with K/M/G suffixes in [min, max]
  word,    // one of `words`
};

// A value list as typed: items separated by commas; for integer and size axes an item may be a
// range LOW:HIGH[:FACTOR] (LOW, LOW*FACTOR, ... <= HIGH; factor 2 when omitted), as nccl-tests'
// -b/-e/-f.
struct Axis {
  std::string name;
  AxisType type = AxisType::word;
  std::vector<std::string> allowed_words; // word axes
  std::uint64_t min = 1, max = 1;         // integer and size axes
  std::string host_values, host_quick;    // defaults on the host backend (quick: --quick)
  std::string gpu_values, gpu_quick;      // on a GPU backend; empty: the host's
  std::string computed; // the default is worked out on the machine, this says how
  std::string flag;     // the family flag that spells the axis (without "--"); empty: none
  std::string help;

  static Axis words(std::string name, std::vector<std::string> allowed);
  static Axis sizes(std::string name, std::uint64_t min, std::uint64_t max);
  static Axis integers(std::string name, std::uint64_t min, std::uint64_t max);
  // Defaults everywhere (quick: under --quick; empty = the same).
  Axis& defaults(std::string values, std::string quick = "");
  // Defaults on a GPU backend, where they differ from the host's.
  Axis& on_gpu(std::string values, std::string quick = "");
  Axis& computed_default(std::string how);
  Axis& spelled(std::string flag_name);
  Axis& described(std::string text);

  // The default text for a backend kind and profile ("" when computed).
  std::string default_text(bool gpu, bool quick) const;
  // What help and --list say about the defaults: "1M", "host 1024,2048,4096 (--quick 512,1024);
  // GPU 8192", "4 x the last-level cache".
  std::string default_summary() const;
  // What values it takes: "float|double|bf16", "size 1..1G", "integer 1..1024".
  std::string type_summary() const;
};

// The values `text` names for `axis`, in order; throws InputError naming `flag` and the axis for a
// value of the wrong type, out of range, or a range of more than kMaxAxisValues values.
std::vector<nlohmann::json> parse_axis_values(const Axis& axis, const std::string& text,
                                              const std::string& flag);
// The text a value list prints as: sizes in binary units ("8,1K,64M").
std::string axis_values_text(const Axis& axis, const std::vector<nlohmann::json>& values);

constexpr std::size_t kMaxAxisValues = 4096;

} // namespace cb
