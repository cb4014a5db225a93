#pragma once
// "As good as this known-good node": a spec built from a reference results file. Each usable
// reference record becomes a check on the same suite, case, params, GPU and node count, expecting
// the reference's figure (its median, the figure every record quotes) times a fraction.
#include <optional>
#include <string>

#include "qualify/spec.hpp"
#include "results/record.hpp"

namespace cb {

inline constexpr double kDefaultReferenceFraction = 0.90;

// Records that are skipped, failed or noisy, or that carry no figure, are not references; they
// are left out (a noisy figure would make a poor bar). Throws InputError when nothing is left.
Spec spec_from_reference(const ResultsFile& reference, const std::string& path, double fraction);

// True when the JSON document is a clusterbench results file rather than a spec.
bool is_results_document(const nlohmann::json& j);

// Loads what `--spec` names after resolution: a spec file, or a results file used as the
// reference. `fraction` overrides the fraction of every threshold check (default 0.90 for a
// reference).
Spec load_spec_or_reference(const std::string& path, std::optional<double> fraction);

} // namespace cb
