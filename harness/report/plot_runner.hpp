#pragma once
// The report's figures: plots/plot.py RESULTS --out DIR (see plotting/plot_script.hpp).
#include <string>

#include "plotting/plot_script.hpp"

namespace cb::report {

using PlotRun = cb::PlotRun;

PlotRun draw_plots(const std::string& results_path, const std::string& out_dir);

} // namespace cb::report
