#pragma once
// Draws a results file's figures with the project's plotting script (plots/plot.py, matplotlib).
// Plots are an extra: when Python, matplotlib or the script is missing the report still stands,
// and the outcome carries one line saying how to get them.
#include <optional>
#include <string>
#include <vector>

namespace cb::report {

struct PlotRun {
  bool drawn = false;
  std::vector<std::string> files; // the PNGs written, as plot.py printed them
  std::string note;               // when not drawn: why, and how to get the plots
};

// $CLUSTERBENCH_PYTHON if set, else /usr/bin/python3 when it exists, else python3 from PATH.
std::string find_plot_python();
// $CLUSTERBENCH_PLOTS (the script, or the folder holding it) if set, else plots/plot.py in the
// source tree this binary was built from. nullopt when the file is not there.
std::optional<std::string> locate_plot_script();

// Runs `python plot.py RESULTS --out DIR`.
PlotRun draw_plots(const std::string& results_path, const std::string& out_dir);

} // namespace cb::report
