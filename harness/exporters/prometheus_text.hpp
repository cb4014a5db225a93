#pragma once
// The Prometheus text exposition format (version 0.0.4), as node_exporter's textfile collector
// and `promtool check metrics` read it: every family once, with HELP and TYPE, its samples after
// it, no timestamps (the textfile collector refuses them). Only gauges: every figure clusterbench
// exports is a state measured once, not a count that grows.
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "results/output_target.hpp"

namespace cb {

// The first bytes of every textfile clusterbench writes: how output_target knows a file of ours.
inline constexpr std::string_view kPrometheusFileStart = kPrometheusTextfileStart;

struct PromLabel {
  std::string name;
  std::string value;
};

struct PromSample {
  std::vector<PromLabel> labels;
  double value = 0;
};

struct PromFamily {
  std::string name;
  std::string help;
  std::vector<PromSample> samples;
};

class PromDocument {
public:
  // Adds a sample to the family `name`, created (with `help`) at its first sample, so families
  // keep the order they first appear in. A sample whose labels (empty values left out, as
  // Prometheus reads them) repeat one of the family's is dropped and counted: two series of one
  // identity make the textfile collector refuse the whole file. std::logic_error for a metric or
  // label name the format does not allow, or a label named twice: those names are ours, not input.
  void add(const std::string& name, const std::string& help, std::vector<PromLabel> labels,
           double value);
  const std::vector<PromFamily>& families() const { return families_; }
  std::size_t dropped() const { return dropped_; }
  // The file: `heading` as comment lines after kPrometheusFileStart, then the families.
  std::string text(std::string_view heading) const;

private:
  std::vector<PromFamily> families_;
  // Per family, its samples' identities: a set, as a family holds a sample per GPU of a cluster.
  std::vector<std::unordered_set<std::string>> identities_;
  std::size_t dropped_ = 0;
};

// [a-zA-Z_:][a-zA-Z0-9_:]*
bool valid_metric_name(std::string_view name);
// [a-zA-Z_][a-zA-Z0-9_]*, not starting with "__" (reserved by Prometheus).
bool valid_label_name(std::string_view name);
// Backslash, double quote and newline escaped (\\, \", \n) as the format defines; other control
// characters and invalid UTF-8 replaced by U+FFFD (the format has no escape for them).
std::string escape_label_value(std::string_view value);
// Backslash and newline escaped; the rest as in label values.
std::string escape_help(std::string_view help);
// The shortest text that reads back as the same double; NaN, +Inf, -Inf as the format spells them.
std::string format_sample_value(double value);

} // namespace cb
