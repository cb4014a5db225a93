#include "runtime/run_summary.hpp"

#include <algorithm>
#include <cstdio>

#include "core/format.hpp"
#include "core/stats.hpp"

namespace cb {

std::string run_summary_text(const SweepSummary& s, double peak_rss_bytes, const std::string& out,
                             bool threads) {
  std::string text;
  char line[512];
  std::snprintf(line, sizeof line,
                "#\n# %d records: %d ok, %d noisy (%d settled above the target, %d at the time "
                "cap), %d skipped, %d failed, %d failed data checks\n",
                s.records, s.records - s.noisy - s.skipped - s.failed, s.noisy, s.settled,
                s.noisy - s.settled, s.skipped, s.failed, s.check_failed);
  text += line;
  if (!s.noisy_cv.empty()) {
    std::snprintf(
        line, sizeof line, "# noisy records' cv: min %s, median %s, max %s\n",
        format_cv_percent(*std::min_element(s.noisy_cv.begin(), s.noisy_cv.end())).c_str(),
        format_cv_percent(median(s.noisy_cv)).c_str(),
        format_cv_percent(*std::max_element(s.noisy_cv.begin(), s.noisy_cv.end())).c_str());
    text += line;
  }
  std::snprintf(line, sizeof line,
                threads ? "# peak RSS of the process (all its ranks): %s MiB\n"
                        : "# peak RSS per rank: max %s MiB\n",
                format_fixed(peak_rss_bytes / 1048576.0, 1).c_str());
  text += line;
  // The path is the user's and may be long: appended, not formatted into a fixed buffer.
  text += "# results: " + out + "\n";
  return text;
}

} // namespace cb
