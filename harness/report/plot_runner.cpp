#include "report/plot_runner.hpp"

namespace cb::report {

PlotRun draw_plots(const std::string& results_path, const std::string& out_dir,
                   const std::string& prediction_path) {
  if (prediction_path.empty())
    return run_plot_script({results_path, "--out", out_dir});
  return run_plot_script({results_path, "--out", out_dir, "--prediction", prediction_path});
}

} // namespace cb::report
