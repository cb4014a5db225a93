// The links family's console output: a pair test's record (every pair in one record, summarised
// as min_pair_/max_pair_ figures) prints its summary line and the pair matrix (nvbandwidth's
// layout); any other links record prints as a row.
#include <cstdio>
#include <ostream>

#include "core/format.hpp"
#include "links/link_matrix.hpp"
#include "runtime/console_printer.hpp"

namespace cb {
namespace {

class LinksPrinter : public ConsolePrinter {
public:
  void rows(std::ostream& out, const std::vector<Record>& records) override {
    for (const auto& r : records) {
      const bool screened = r.extra.contains("screen") && r.extra.contains("observations");
      const bool pair_test =
          (r.extra.contains("matrix") || screened) &&
          (r.metrics.contains("min_pair_gbps") || r.metrics.contains("min_pair_latency_us"));
      if (!pair_test) {
        ConsolePrinter::rows(out, {r});
        continue;
      }
      const bool latency = r.metrics.contains("latency_us");
      const std::string metric = latency ? "latency_us" : "gbps";
      char line[256];
      std::snprintf(line, sizeof line,
                    "  %s bytes=%llu: median %s %s (min %s, max %s) over %d pairs",
                    r.params.value("direction", latency ? "ping-pong" : "").c_str(),
                    static_cast<unsigned long long>(r.params.value("bytes", 0ull)),
                    format_figure_compact(r.metrics.value(metric, 0.0)).c_str(),
                    latency ? "us one-way" : "GB/s",
                    format_figure_compact(r.metrics.value("min_pair_" + metric, 0.0)).c_str(),
                    format_figure_compact(r.metrics.value("max_pair_" + metric, 0.0)).c_str(),
                    r.extra.value("pairs", 0));
      out << line << status_text(r) << "\n";
      if (!screened) {
        out << format_matrix(LinkMatrix::from_json(r.extra["matrix"]), latency ? 3 : 2, latency);
        continue;
      }
      // The screen measures some node pairs, not every one: no matrix to print.
      const auto& screen = r.extra["screen"];
      std::snprintf(line, sizeof line,
                    "  across nodes the screen: %d rounds, %lld tests, %zu figures\n",
                    screen.value("rounds", 0), screen.value("tests", 0LL),
                    r.extra["observations"].value("src", nlohmann::json::array()).size());
      out << line;
    }
  }
};

} // namespace

CB_REGISTER_PRINTER("links", LinksPrinter);

} // namespace cb
