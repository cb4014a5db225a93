#pragma once
// What the gate keeps of one run: each case's run-level figures (the median of its samples, the
// medians of its headline metrics), not its samples. A side of ten runs of a whole cluster is
// then ten small tables, whatever the size of the files: each file is read, summarised and let go.
#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "results/record.hpp"
#include "verdicts/case_matching.hpp"

namespace cb {

struct CaseFigures {
  CaseKey key;
  double median_time_s = 0; // median of the run's samples; NaN unless every record has samples
  std::size_t samples = 0;  // samples pooled from the run's records of the case
  std::map<std::string, double> headline_medians; // headline metrics every record carries
  bool noisy = false;
};

struct RunFigures {
  std::string path;
  std::string backend; // run.backend, "-" when the file does not say
  std::vector<CaseFigures> measured;
  std::vector<UnmeasuredCase> unmeasured;
  std::map<std::string, std::size_t> position; // CaseKey::id() -> index into measured
  const CaseFigures* find(const std::string& id) const;
};

RunFigures summarize_run(const ResultsFile& results, const std::string& path);
// load_verdict_input, then summarize_run.
RunFigures load_run_figures(const std::string& path);

// The files a command-line path names: the file itself, or every entry of a directory in name
// order. A directory's entries must all be regular files named *.json: anything else (a
// subdirectory, a hidden file, a log beside the runs) is refused with InputError naming it and
// `flag`, as every input of ours is, rather than skipped without a word.
std::vector<std::string> run_files(const std::string& path, const std::string& flag);

// One side of a check: runs of the same cases on the same backend. Throws InputError naming both
// files and the case or backend when a run differs from the side's first.
struct RunSide {
  std::vector<RunFigures> runs;
};
// `first`, when given, is paths[0] already read (compare reads the first run whole). A history
// (same_cases false) may gain or lose cases over time; its runs must still share a backend.
RunSide load_side(const std::vector<std::string>& paths, const std::string& flag,
                  const ResultsFile* first = nullptr, bool same_cases = true);

// The figure of `quantity` (time_s or a headline metric) of a case in one run; NaN when absent.
double figure_of(const CaseFigures& c, const std::string& quantity);
// The quantity every one of `figures` carries: time when all have samples, else the first
// headline metric all carry; empty when there is none.
std::string shared_quantity(const std::vector<const CaseFigures*>& figures);
// Which direction of `quantity` is better: time and the lower-is-better headline metrics lower.
Better better_of(const std::string& quantity);

} // namespace cb
