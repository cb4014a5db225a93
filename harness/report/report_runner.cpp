#include "report/report_runner.hpp"

#include <cstdlib>
#include <filesystem>

#include "core/error.hpp"
#include "report/goodput_section.hpp"
#include "report/html_renderer.hpp"
#include "report/markdown_renderer.hpp"
#include "report/plot_runner.hpp"
#include "report/report_builder.hpp"
#include "report/report_json.hpp"
#include "results/results_io.hpp"

namespace cb::report {
namespace {

namespace fs = std::filesystem;

// A private folder removed with everything in it when the report is done: where the HTML page's
// figures are drawn when no --plots folder was asked for.
class TemporaryFolder {
public:
  TemporaryFolder() {
    std::string pattern = (fs::temp_directory_path() / "clusterbench-report-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) {
      throw RunError("cannot create a temporary folder for the figures in " +
                     fs::temp_directory_path().string());
    }
    path_ = pattern;
  }
  ~TemporaryFolder() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  TemporaryFolder(const TemporaryFolder&) = delete;
  TemporaryFolder& operator=(const TemporaryFolder&) = delete;
  const std::string& path() const { return path_; }

private:
  std::string path_;
};

PlotSet plot_set(const PlotRun& run) {
  return {true, run.files, run.drawn ? "" : run.note};
}

} // namespace

int run_report(const ReportCommandOptions& options, std::ostream& out, std::ostream& err,
               const ReportExport& also) {
  // Unusable outputs fail before any work.
  if (options.html_path) {
    check_writable_file(*options.html_path, "--html");
    check_output_target(*options.html_path, "--html", {options.results_path});
    refuse_foreign_file(*options.html_path, "--html", OwnFile::html_report);
  }
  if (options.plots_dir)
    prepare_folder(*options.plots_dir, "--plots");

  const ResultsFile results = load_results(options.results_path);
  const ReportData data = build_report_data(results, options.results_path, options.report);

  PlotSet linked;   // the figures the Markdown and JSON name
  PlotSet embedded; // the figures the HTML page carries
  std::optional<TemporaryFolder> scratch;
  // The measured step's comparison goes to the plot script in a file of our own, outside the
  // user's folder.
  std::optional<TemporaryFolder> step_file;
  std::string prediction_path;
  if ((options.plots_dir || options.html_path) && data.headline.step) {
    step_file.emplace();
    prediction_path = step_file->path() + "/step_prediction.json";
    write_text_atomic(step_validation_to_json(*data.headline.step).dump(), prediction_path);
  }
  std::string goodput_path;
  if ((options.plots_dir || options.html_path) && !data.headline.goodput.empty()) {
    if (!step_file)
      step_file.emplace();
    goodput_path = step_file->path() + "/goodput.json";
    write_text_atomic(goodput_json(data.headline).dump(), goodput_path);
  }
  if (options.plots_dir) {
    linked = plot_set(
        draw_plots(options.results_path, *options.plots_dir, prediction_path, goodput_path));
    embedded = linked;
  } else if (options.html_path) {
    scratch.emplace();
    embedded =
        plot_set(draw_plots(options.results_path, scratch->path(), prediction_path, goodput_path));
  }
  const std::string& note = options.plots_dir ? linked.note : embedded.note;
  if (!note.empty())
    err << "clusterbench report: " << note << "\n";

  if (options.json) {
    out << report_to_json(data, linked).dump(2) << "\n";
  } else {
    out << render_markdown(build_report_document(data, linked));
  }
  if (options.html_path) {
    const std::string html = render_html(build_report_document(data, embedded));
    try {
      write_text_atomic(html, *options.html_path, {options.results_path});
    } catch (const Error& e) {
      throw InputError(std::string("--html: ") + e.what());
    }
  }
  if (also)
    also(results, data);
  return 0;
}

} // namespace cb::report
