#pragma once
// `compare --plot DIR`: draws both runs on the same axes with the project's plotting script
// (plots/plot.py --overlay A B --out DIR), which needs Python with matplotlib.
#include <string>
#include <vector>

namespace cb {

struct PlotOutcome {
  bool ok = false;
  std::string message; // on failure: what went wrong and how to get the plots anyway
};

// $CLUSTERBENCH_PYTHON if set, else /usr/bin/python3 if it exists, else python3 from PATH.
std::string find_python();
// plots/plot.py under the current directory if present, else in the source tree this binary was
// built from.
std::string find_plot_script();
std::vector<std::string> overlay_plot_command(const std::string& a, const std::string& b,
                                              const std::string& out_dir);

// Runs the script with its output sent to stderr (stdout may carry --json). Never throws for a
// failed plot: the comparison stands without pictures.
PlotOutcome run_overlay_plot(const std::string& a, const std::string& b,
                             const std::string& out_dir);

} // namespace cb
