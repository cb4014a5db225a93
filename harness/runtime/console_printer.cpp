#include "runtime/console_printer.hpp"

#include <cstdio>
#include <ostream>

#include "core/format.hpp"

namespace cb {

void ConsolePrinter::heading(std::ostream& out, const TableHeading& table) {
  out << "# " << table.suite << " " << table.name << " on " << table.ranks << " rank"
      << (table.ranks == 1 ? "" : "s") << " (" << table.nodes << " node"
      << (table.nodes == 1 ? "" : "s") << ", " << table.tier << "), backend " << table.backend
      << "\n";
}

std::string params_text(const Record& record) {
  std::string params;
  for (const auto& [key, value] : record.params.items())
    params += key + "=" + (value.is_string() ? value.get<std::string>() : value.dump()) + " ";
  return params;
}

std::string status_text(const Record& record) {
  std::string text = "  " + record.status + (record.check == DataCheck::fail ? " CHECK FAILED" : "");
  if (!record.reason.empty())
    text += " (" + record.reason + ")";
  return text;
}

void ConsolePrinter::rows(std::ostream& out, const std::vector<Record>& records) {
  for (const auto& r : records) {
    char line[512];
    std::snprintf(line, sizeof line, "  %-48s %12s us", params_text(r).c_str(),
                  format_fixed(r.stats.median * 1e6, 2).c_str());
    out << line;
    for (const auto& [key, value] : r.metrics.items()) {
      if (key == "time_us" || !value.is_number())
        continue;
      std::snprintf(line, sizeof line, "  %s %s", key.c_str(),
                    format_figure_compact(value.get<double>(), 4).c_str());
      out << line;
    }
    out << status_text(r) << "\n";
  }
}

PrinterRegistry& PrinterRegistry::instance() {
  static PrinterRegistry registry;
  return registry;
}

void PrinterRegistry::add(const std::string& suite, Factory factory) {
  factories_[suite] = factory;
}

std::unique_ptr<ConsolePrinter> PrinterRegistry::create(const std::string& suite) const {
  auto it = factories_.find(suite);
  if (it == factories_.end())
    return std::make_unique<RowsPrinter>();
  return it->second();
}

} // namespace cb
