#pragma once
// The journal of a run's results file: the records the run finished since it last wrote the
// whole file, one compact JSON line each (as in the file), after a header line naming the run and
// how many records the file held when the journal began:
//   {"records_before":120,"run_id":"...","run_started":"...","schema":"clusterbench.results-journal","schema_version":1}
//   {"case":"all_reduce",...}
// It sits beside the file as FILE.journal and exists only while the file lags behind its run
// (incremental_writer.hpp says when; docs/DESIGN.md, "The results file of a run").
#include <cstddef>
#include <string>

#include <nlohmann/json.hpp>

#include "results/record.hpp"

namespace cb {

inline constexpr const char* kJournalSchemaName = "clusterbench.results-journal";

// FILE.journal beside the file `results_path` ends at (through symbolic links).
std::string journal_path_for(const std::string& results_path);
// The header line, newline included.
std::string journal_header(const nlohmann::json& run, std::size_t records_before);
// A regular file (not a link) whose first line is a journal header: one a writer may replace.
bool is_results_journal(const std::string& path);

// Appends to `results`, read from `path`, the records of its journal that the file lacks: those
// after its last record, when the journal is of the same run (run id and start time) and began
// at or before that record; otherwise (no journal, another run's, a file older than its journal)
// nothing. A last line cut short (the run died writing it) ends the journal. Returns how many
// were added. InputError "FILE.journal: line N: ..." for a whole line that is not a valid record.
std::size_t merge_results_journal(ResultsFile& results, const std::string& path);

} // namespace cb
