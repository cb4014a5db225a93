#pragma once
// `compare --plot DIR`: both runs drawn on the same axes by the project's plotting script
// (plots/plot.py A --overlay B --out DIR), which needs Python with matplotlib.
#include <string>

namespace cb {

struct PlotOutcome {
  bool ok = false;
  std::string message; // what was written, or what went wrong and how to get the plots anyway
};

// Never throws for a failed plot: the comparison stands without pictures.
PlotOutcome run_overlay_plot(const std::string& a, const std::string& b,
                             const std::string& out_dir);

} // namespace cb
