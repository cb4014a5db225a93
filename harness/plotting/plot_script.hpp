#pragma once
// Runs the project's plotting script (plots/plot.py, matplotlib) for `report` and `compare --plot`.
// Plots are an extra: when Python, matplotlib or the script is missing, the caller's output still
// stands, and the outcome carries one line saying how to get the plots.
#include <optional>
#include <string>
#include <vector>

namespace cb {

struct PlotRun {
  bool drawn = false;
  std::vector<std::string> files; // the PNGs written, as plot.py printed them
  std::string note;               // when not drawn: why, and how to get the plots
};

// $CLUSTERBENCH_PYTHON if set, else /usr/bin/python3 when it exists (Debian's python3-matplotlib
// installs there, while a python3 earlier on PATH may lack it), else python3 from PATH.
std::string find_plot_python();
// $CLUSTERBENCH_PLOTS (the script, or the folder holding it) if set, else plots/plot.py in the
// source tree this binary was built from. nullopt when the file is not there.
std::optional<std::string> locate_plot_script();

// Runs `python plot.py SCRIPT_ARGS...`, e.g. {RESULTS, "--out", DIR}.
PlotRun run_plot_script(const std::vector<std::string>& script_args);

} // namespace cb
