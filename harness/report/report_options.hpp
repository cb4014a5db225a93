#pragma once
// The report command's flags: what to write where, and the training step the headline predicts.
#include <optional>
#include <string>

#include "core/units.hpp"

#include "core/args.hpp"
#include "report/headline.hpp"

namespace cb::report {

struct ReportCommandOptions {
  std::string results_path;
  std::optional<std::string> html_path; // --html
  std::optional<std::string> plots_dir; // --plots
  bool json = false;                    // --json
  ReportOptions report;
};

// Declares the flags on `args`.
void declare_report_flags(ArgParser& args);
// Reads them after parse(); InputError naming the flag for a bad value.
ReportCommandOptions read_report_flags(const ArgParser& args);

// Fails early, before any work, when `path` cannot be written: an existing folder, a missing
// parent folder, or one where no file can be created. InputError naming `flag`.
void check_writable_file(const std::string& path, const std::string& flag);
// Creates the folder if missing; InputError naming `flag` when it cannot be used.
void prepare_folder(const std::string& path, const std::string& flag);

} // namespace cb::report
