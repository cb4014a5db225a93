#include "report/plot_runner.hpp"

namespace cb::report {

PlotRun draw_plots(const std::string& results_path, const std::string& out_dir,
                   const std::string& prediction_path, const std::string& goodput_path) {
  std::vector<std::string> args{results_path, "--out", out_dir};
  if (!prediction_path.empty())
    args.insert(args.end(), {"--prediction", prediction_path});
  if (!goodput_path.empty())
    args.insert(args.end(), {"--goodput", goodput_path});
  return run_plot_script(args);
}

} // namespace cb::report
