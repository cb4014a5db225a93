#pragma once
// The report's figures: plots/plot.py RESULTS --out DIR (see plotting/plot_script.hpp).
#include <string>

#include "plotting/plot_script.hpp"

namespace cb::report {

using PlotRun = cb::PlotRun;

// `prediction_path`: the report's training-step comparison (JSON), drawn on step_anatomy.png;
// `goodput_path`: its goodput figures (goodput_section.hpp), drawn as useful_work.png; empty for
// none.
PlotRun draw_plots(const std::string& results_path, const std::string& out_dir,
                   const std::string& prediction_path = "", const std::string& goodput_path = "");

} // namespace cb::report
