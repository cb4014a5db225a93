#include "verdicts/overlay_plot.hpp"

#include "plotting/plot_script.hpp"

namespace cb {

PlotOutcome run_overlay_plot(const std::string& a, const std::string& b,
                             const std::string& out_dir) {
  const PlotRun run = run_plot_script({a, "--overlay", b, "--out", out_dir});
  if (!run.drawn || run.files.empty())
    return {false, run.note};
  std::string written;
  for (const auto& file : run.files)
    written += (written.empty() ? "" : ", ") + file;
  return {true, "plots written: " + written};
}

} // namespace cb
