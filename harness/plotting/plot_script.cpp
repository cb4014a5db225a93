#include "plotting/plot_script.hpp"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <sstream>

#include "plotting/subprocess.hpp"

namespace cb {
namespace {

namespace fs = std::filesystem;

std::string requirements_hint(const std::optional<std::string>& script) {
  const std::string requirements =
      script ? (fs::path(*script).parent_path() / "requirements.txt").string()
             : std::string("plots/requirements.txt");
  return "apt-get install python3-matplotlib, or pip install -r " + requirements +
         ", or point CLUSTERBENCH_PYTHON at a Python that has matplotlib";
}

std::string last_line(const std::string& text) {
  std::istringstream in(text);
  std::string line, last;
  while (std::getline(in, line)) {
    if (!line.empty())
      last = line;
  }
  return last;
}

std::string ending(const ProcessOutcome& p) {
  return p.signal ? "was killed by signal " + std::to_string(p.signal)
                  : "exited with " + std::to_string(p.exit_code);
}

} // namespace

std::string find_plot_python() {
  if (const char* chosen = std::getenv("CLUSTERBENCH_PYTHON"); chosen && *chosen)
    return chosen;
  if (::access("/usr/bin/python3", X_OK) == 0)
    return "/usr/bin/python3";
  return "python3";
}

std::optional<std::string> locate_plot_script() {
  std::error_code ec;
  if (const char* chosen = std::getenv("CLUSTERBENCH_PLOTS"); chosen && *chosen) {
    fs::path path(chosen);
    if (fs::is_directory(path, ec))
      path /= "plot.py";
    if (fs::is_regular_file(path, ec))
      return path.string();
    return std::nullopt;
  }
  const fs::path built_from = fs::path(CB_SOURCE_DIR) / "plots" / "plot.py";
  if (fs::is_regular_file(built_from, ec))
    return built_from.string();
  return std::nullopt;
}

PlotRun run_plot_script(const std::vector<std::string>& script_args) {
  PlotRun run;
  const auto script = locate_plot_script();
  if (!script) {
    run.note = "no plots: plots/plot.py was not found (CLUSTERBENCH_PLOTS, else " +
               std::string(CB_SOURCE_DIR) +
               "/plots); set CLUSTERBENCH_PLOTS to the plots folder of a clusterbench source tree";
    return run;
  }
  const std::string python = find_plot_python();
  const ProcessOutcome probe = run_process({python, "-c", "import matplotlib, numpy"});
  if (!probe.started) {
    run.note = "no plots: cannot start " + python + " (" + probe.start_error +
               "); to get them install Python 3 with matplotlib: " + requirements_hint(script);
    return run;
  }
  if (!probe.succeeded()) {
    run.note = "no plots: " + python +
               " cannot import matplotlib and numpy; to get them: " + requirements_hint(script);
    return run;
  }
  std::vector<std::string> argv{python, *script};
  argv.insert(argv.end(), script_args.begin(), script_args.end());
  const ProcessOutcome plot = run_process(argv);
  if (!plot.succeeded()) {
    const std::string why = last_line(plot.err);
    run.note = "no plots: " + *script + " " + (plot.started ? ending(plot) : plot.start_error) +
               (why.empty() ? "" : ": " + why);
    return run;
  }
  std::istringstream lines(plot.out);
  std::string line;
  std::error_code ec;
  while (std::getline(lines, line)) {
    if (line.size() > 4 && line.compare(line.size() - 4, 4, ".png") == 0 &&
        fs::is_regular_file(line, ec)) {
      run.files.push_back(line);
    }
  }
  run.drawn = true;
  if (run.files.empty())
    run.note = "no plots: " + *script + " found nothing to draw";
  return run;
}

} // namespace cb
