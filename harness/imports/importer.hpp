#pragma once
// `clusterbench import`: other tools' logs in one results file, so existing measurements can be
// fitted, compared, qualified and plotted like our own.
#include <string>
#include <string_view>
#include <vector>

#include "imports/imported_run.hpp"
#include "imports/osu_import.hpp"
#include "results/record.hpp"

namespace cb {

enum class ImportTool { nccl_tests, fio, osu };
ImportTool import_tool_from_name(std::string_view name); // nccl-tests|fio|osu, else InputError
std::string_view import_tool_name(ImportTool tool);

struct ImportOptions {
  OsuOptions osu;
};

struct ImportOutcome {
  ResultsFile results;
  std::vector<std::string> warnings; // one line each, "FILE:LINE: cannot parse: ..."
};

// Reads every file (each must hold at least one table of the tool, else InputError naming it)
// and merges them into one run: launcher "import:<tool>", hosts and versions as the files state
// them, argv the original command when a file records it.
// With a sink, every record goes there, in the order of the files, and none into the outcome.
ImportOutcome import_files(ImportTool tool, const std::vector<std::string>& files,
                           const ImportOptions& options, const RecordSink& sink = {});

} // namespace cb
