#pragma once
// The run's console output, rank 0's alone. The sweep hands each table's heading (one case at one
// GPU count) and each instance's finished records to the printer of the case's suite; printers
// only format what they are given. A family with a table of its own (the nccl-tests table of the
// collectives, the pair matrix of the links) registers its printer beside its cases; every other
// suite gets RowsPrinter.
#include <iosfwd>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "results/record.hpp"

namespace cb {

// What a table's first line says: which case, on how many ranks and nodes, and where.
struct TableHeading {
  std::string suite;
  std::string name;
  std::string backend;
  std::string tier; // "intra" or "inter" (Placement::tier)
  int ranks = 0;
  int nodes = 0;
};

class ConsolePrinter {
public:
  virtual ~ConsolePrinter() = default;
  // Once per table, before its rows: "# suite name on N ranks (M nodes, tier), backend B".
  virtual void heading(std::ostream& out, const TableHeading& table);
  // The records of one instance (what one run() returned), in order.
  virtual void rows(std::ostream& out, const std::vector<Record>& records);
};

// One line per record: its parameters, median time, numeric metrics, status and reason.
class RowsPrinter : public ConsolePrinter {};

// A record's parameters as "key=value key=value " (strings unquoted), the way the rows show them.
std::string params_text(const Record& record);
// " ok", " noisy CHECK FAILED (reason)": the end of a record's line.
std::string status_text(const Record& record);

class PrinterRegistry {
public:
  using Factory = std::unique_ptr<ConsolePrinter> (*)();
  static PrinterRegistry& instance();
  void add(const std::string& suite, Factory factory);
  // A fresh printer for the suite (its table state starts empty); RowsPrinter when none is
  // registered.
  std::unique_ptr<ConsolePrinter> create(const std::string& suite) const;

private:
  std::map<std::string, Factory> factories_;
};

struct PrinterRegistration {
  PrinterRegistration(const char* suite, PrinterRegistry::Factory f) {
    PrinterRegistry::instance().add(suite, f);
  }
};

} // namespace cb

#define CB_REGISTER_PRINTER(suite, Type)                                                           \
  static const ::cb::PrinterRegistration CB_PRINTER_REG_##Type {                                   \
    suite, []() -> std::unique_ptr<::cb::ConsolePrinter> { return std::make_unique<Type>(); }      \
  }
