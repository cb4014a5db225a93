#pragma once
// Printing a ClusterComparison: Markdown for people (environment first, because it explains most
// differences), JSON for machines.
#include <nlohmann/json.hpp>
#include <string>

#include "verdicts/cluster_compare.hpp"

namespace cb {

struct CompareContext {
  std::string a_path, b_path;
  double significance = 0.05;
  double confidence = 0.95;
};

std::string compare_report_markdown(const ClusterComparison& comparison,
                                    const CompareContext& context);
nlohmann::json compare_report_json(const ClusterComparison& comparison,
                                   const CompareContext& context);

} // namespace cb
