// The collectives' console table, in nccl-tests' layout: one row per size/dtype/op with the
// out-of-place and in-place figures side by side, so a log can be read (and imported with
// `clusterbench import nccl-tests`) like an nccl-tests one.
#include <cstdio>
#include <ostream>

#include "core/format.hpp"
#include "runtime/console_printer.hpp"

namespace cb {
namespace {

class CollectivesTable : public ConsolePrinter {
public:
  void heading(std::ostream& out, const TableHeading& table) override {
    ConsolePrinter::heading(out, table);
    printed_skip_reason_.clear();
    // communicator_init moves no data: a row per record, as every other suite prints.
    sized_ = table.name != "communicator_init";
    if (!sized_)
      return;
    char line[256];
    std::snprintf(line, sizeof line, "#%12s %12s %8s %6s %6s %52s\n", "", "", "", "", "",
                  "out-of-place                       in-place");
    out << line;
    std::snprintf(line, sizeof line, "#%12s %12s %8s %6s %6s %9s %7s %7s %6s %9s %7s %7s %6s\n",
                  "size", "count", "type", "redop", "root", "time", "algbw", "busbw", "#wrong",
                  "time", "algbw", "busbw", "#wrong");
    out << line;
    std::snprintf(line, sizeof line, "#%12s %12s %8s %6s %6s %9s %7s %7s %6s %9s %7s %7s %6s\n",
                  "(B)", "(elements)", "", "", "", "(us)", "(GB/s)", "(GB/s)", "", "(us)",
                  "(GB/s)", "(GB/s)", "");
    out << line;
  }

  void rows(std::ostream& out, const std::vector<Record>& records) override {
    if (!sized_) {
      ConsolePrinter::rows(out, records);
      return;
    }
    if (records.empty())
      return;
    const auto& p = records.front().params;
    char line[256];
    std::snprintf(line, sizeof line, " %12llu %12llu %8s %6s %6d",
                  static_cast<unsigned long long>(p.value("bytes", 0ull)),
                  static_cast<unsigned long long>(p.value("count", 0ull)),
                  p.value("dtype", "").c_str(), p.value("op", "none").c_str(),
                  records.front().case_name == "broadcast" ? 0 : -1);
    out << line;
    for (bool in_place : {false, true}) {
      const Record* r = nullptr;
      for (const auto& candidate : records) {
        if (candidate.params.value("in_place", false) == in_place)
          r = &candidate;
      }
      if (!r) {
        std::snprintf(line, sizeof line, " %9s %7s %7s %6s", "-", "-", "-", "-");
      } else if (r->status == RecordStatus::skipped) {
        std::snprintf(line, sizeof line, " %9s %7s %7s %6s", "skip", "-", "-", "-");
      } else {
        std::snprintf(line, sizeof line, " %9s %7s %7s %6lld%s",
                      format_fixed(r->metrics.value("time_us", 0.0), 2).c_str(),
                      format_fixed(r->metrics.value("algbw_gbps", 0.0), 2).c_str(),
                      format_fixed(r->metrics.value("busbw_gbps", 0.0), 2).c_str(),
                      r->extra.value("wrong_elements", 0LL),
                      r->status == RecordStatus::noisy ? "~" : "");
      }
      out << line;
    }
    out << "\n";
    for (const auto& r : records) {
      if (r.status == RecordStatus::skipped && r.reason != printed_skip_reason_) {
        out << "#   skipped: " << r.reason << "\n";
        printed_skip_reason_ = r.reason;
      }
      if (r.straggler) {
        const StragglerRank& s = *r.straggler;
        // nvidia-smi's index and the bus id where the backend has them: the CUDA ordinal is 0 on
        // every rank that sees one GPU.
        const std::string gpu =
            s.nvml_index >= 0 ? "GPU " + std::to_string(s.nvml_index) +
                                    (s.pci_bus_id.empty() ? "" : " " + s.pci_bus_id)
                              : "device " + std::to_string(s.device);
        std::snprintf(
            line, sizeof line,
            "#   %s: straggler rank %d (%s %s): shortest own time in %s%% of "
            "samples, %sx the others' median\n",
            r.params.value("in_place", false) ? "in-place" : "out-of-place", s.rank, s.host.c_str(),
            gpu.c_str(), format_fixed(s.shortest_share * 100, 0).c_str(),
            format_ratio(s.others_median_s > 0 ? s.median_s / s.others_median_s : 0.0).c_str());
        out << line;
      }
    }
  }

private:
  // The last skip reason printed under the current table: a reason shared by every row (in-place
  // alltoall on NCCL) is printed once, not once per size.
  std::string printed_skip_reason_;
  bool sized_ = true;
};

} // namespace

CB_REGISTER_PRINTER("collectives", CollectivesTable);

} // namespace cb
