#include "imports/osu_import.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>

#include "core/collective_math.hpp"
#include "core/error.hpp"
#include "imports/text_lines.hpp"
#include "results/suite_names.hpp"

namespace cb {
namespace {

using nlohmann::json;

constexpr const char* kTool = "osu";

enum class OsuKind { collective, latency, bandwidth, bidirectional };

struct OsuTest {
  OsuKind kind;
  std::string case_name; // ours
  // Bytes nccl-tests would count per operation, as a multiple of OSU's per-rank message size.
  bool times_ranks = false;
};

// The test names OSU's headers print, e.g. "# OSU MPI All-to-All Personalized Exchange Latency
// Test v7.4".
const std::map<std::string, OsuTest>& known_tests() {
  static const std::map<std::string, OsuTest> tests = {
      {"Allreduce Latency", {OsuKind::collective, "all_reduce"}},
      {"Allgather Latency", {OsuKind::collective, "all_gather", true}},
      {"Broadcast Latency", {OsuKind::collective, "broadcast"}},
      {"All-to-All Personalized Exchange Latency", {OsuKind::collective, "alltoall", true}},
      {"Reduce Latency", {OsuKind::collective, "reduce"}},
      {"Latency", {OsuKind::latency, "pt2pt_latency"}},
      {"Bandwidth", {OsuKind::bandwidth, "pt2pt_bw"}},
      {"Bi-Directional Bandwidth", {OsuKind::bidirectional, "pt2pt_bibw"}},
  };
  return tests;
}

std::string osu_dtype(const std::string& mpi_type) {
  static const std::map<std::string, std::string> names = {
      {"MPI_CHAR", "char"}, {"MPI_INT", "int32"}, {"MPI_FLOAT", "float"}, {"MPI_DOUBLE", "double"}};
  auto it = names.find(mpi_type);
  return it == names.end() ? clean_text(mpi_type) : it->second;
}

// Columns of a "# Size  Avg Latency(us)  Min Latency(us) ..." header: split on runs of two or
// more spaces (or a tab), as OSU pads its right-aligned 18-character fields.
std::vector<std::string> header_columns(std::string_view header) {
  std::vector<std::string> columns;
  const std::string_view text = trim(header.substr(1));
  std::string column;
  std::size_t spaces = 0;
  for (char c : text) {
    if (c == ' ' || c == '\t') {
      spaces += c == '\t' ? 2 : 1;
      continue;
    }
    if (spaces >= 2 && !column.empty()) {
      columns.push_back(column);
      column.clear();
    } else if (spaces == 1) {
      column += ' ';
    }
    spaces = 0;
    column += c;
  }
  if (!column.empty())
    columns.push_back(column);
  return columns;
}

struct Header {
  std::string accelerator; // "CUDA" of "OSU MPI-CUDA"
  std::string name;        // "Allreduce Latency"
  std::string version;     // "7.4"
};

// "# OSU MPI Allreduce Latency Test v7.4", "# OSU MPI-CUDA Bandwidth Test v5.6.3".
std::optional<Header> osu_header(std::string_view t) {
  if (!t.starts_with("# OSU MPI"))
    return std::nullopt;
  std::string_view rest = t.substr(9);
  Header h;
  if (!rest.empty() && rest[0] == '-') {
    const std::size_t space = rest.find(' ');
    if (space == std::string_view::npos)
      return std::nullopt;
    h.accelerator = clean_text(rest.substr(1, space - 1));
    rest.remove_prefix(space);
  }
  rest = trim(rest);
  const std::size_t test = rest.rfind(" Test v");
  if (test == std::string_view::npos || test == 0)
    return std::nullopt;
  h.name = std::string(trim(rest.substr(0, test)));
  h.version = clean_text(trim(rest.substr(test + 7)));
  if (h.name.empty() || h.name.size() > 128 || h.version.empty() || h.version.size() > 16 ||
      h.accelerator.size() > 16 || h.version.find(' ') != std::string::npos) {
    return std::nullopt;
  }
  return h;
}

// Lines an MPI prints when a rank dies: the table above them is all the run finished.
bool crash_line(std::string_view t) {
  static const char* markers[] = {"Process received signal",
                                  "BAD TERMINATION",
                                  "MPI_ABORT",
                                  "Segmentation fault",
                                  "srun: error",
                                  "exited on signal",
                                  "noticed that process rank",
                                  "Killed",
                                  "core dumped",
                                  "Abort(",
                                  "APPLICATION TERMINATED"};
  for (const char* m : markers) {
    if (t.find(m) != std::string_view::npos)
      return true;
  }
  return false;
}

struct Table {
  std::string name; // the header's test name
  const OsuTest* test = nullptr;
  std::string version;
  std::string accelerator; // "CUDA", "ROCM", ... from "OSU MPI-CUDA"
  std::string dtype = "char";
  std::string buffers; // "# Send Buffer on DEVICE (D) and Receive Buffer on DEVICE (D)"
  std::vector<std::string> columns;
  std::size_t header_line = 0;
  std::size_t last_line = 0;
  std::size_t rows = 0;
  long long last_size = -1;
  std::vector<Record> records; // handed on when the table ends (it may have ended early)
  std::string stopped;         // the line that says the run died mid-table
  std::size_t stopped_line = 0;
};

class OsuImporter {
public:
  OsuImporter(std::string source, const OsuOptions& options, RecordSink sink)
      : source_(std::move(source)), options_(options) {
    out_.sink = std::move(sink);
  }

  ImportedRun run(std::string_view text) {
    for_each_line(text, [&](std::size_t number, std::string_view raw) { line(number, raw); });
    finish_table();
    out_.close_warnings(source_);
    if (out_.records_added == 0) {
      throw InputError(source_ + ": no OSU table found (expected a '# OSU MPI ... Test' header "
                                 "and a '# Size' table of osu_allreduce, osu_allgather, osu_bcast, "
                                 "osu_alltoall, osu_reduce, osu_latency, osu_bw or osu_bibw)");
    }
    return std::move(out_);
  }

private:
  static bool tool_output(std::string_view rest) {
    return rest.empty() || rest[0] == '#' || std::isdigit(static_cast<unsigned char>(rest[0]));
  }

  void line(std::size_t number, std::string_view raw) {
    const std::string_view t = trim(strip_launcher_prefix(raw, tool_output));
    if (t.empty() || is_code_fence(t))
      return;
    if (auto h = osu_header(t))
      return start_table(number, h->name, h->accelerator, h->version);
    if (table_ && !table_->test) {
      // The lines of a test we do not import are reported once, with the header.
      table_->last_line = number;
      return;
    }
    if (t[0] == '#') {
      if (t.starts_with("# Datatype:") && table_) {
        std::string_view type = trim(t.substr(11));
        if (!type.empty() && type.back() == '.')
          type.remove_suffix(1);
        table_->dtype = type.size() <= 32 ? osu_dtype(std::string(type)) : "?";
        return;
      }
      if (t.starts_with("# Size") && table_) {
        table_->columns = header_columns(t);
        return;
      }
      if ((t.find("Buffer on") != std::string_view::npos ||
           t.find("Memory on") != std::string_view::npos) &&
          table_) {
        table_->buffers = shown(t.substr(2), 120);
        return;
      }
      return out_.warn_line(source_, number, std::string(trim(raw)));
    }
    if (table_ && table_->test && !table_->columns.empty() &&
        std::isdigit(static_cast<unsigned char>(t[0]))) {
      if (row(number, t))
        return;
    }
    if (table_ && table_->rows > 0 && table_->stopped.empty() && crash_line(t)) {
      table_->stopped = std::string(t);
      table_->stopped_line = number;
    }
    out_.warn_line(source_, number, std::string(trim(raw)));
  }

  void finish_table() {
    if (!table_)
      return;
    if (table_->test && !table_->stopped.empty()) {
      // The run died mid-table: the rows it finished are real figures; the rest never ran.
      out_.warnings.push_back(source_ + ":" + std::to_string(table_->stopped_line) + ": OSU " +
                              table_->name + " ended early after " + std::to_string(table_->rows) +
                              " row(s), the last of " + std::to_string(table_->last_size) +
                              " bytes ('" + shown(table_->stopped, 60) +
                              "'); the finished rows are imported");
      for (Record& r : table_->records)
        r.extra["ended_early"] = true;
    }
    for (Record& r : table_->records)
      out_.add_record(std::move(r));
    table_->records.clear();
    if (table_->test)
      return;
    out_.warnings.push_back(source_ + ":" + std::to_string(table_->header_line) + ": OSU test '" +
                            shown(table_->name, 60) + "' is not imported (lines " +
                            std::to_string(table_->header_line) + "-" +
                            std::to_string(std::max(table_->header_line, table_->last_line)) +
                            " left out; supported: osu_allreduce, osu_allgather, osu_bcast, "
                            "osu_alltoall, osu_reduce, osu_latency, osu_bw, osu_bibw)");
  }

  void start_table(std::size_t number, const std::string& name, const std::string& accelerator,
                   const std::string& version) {
    finish_table();
    table_ = Table{};
    table_->name = name;
    table_->accelerator = accelerator;
    table_->version = version;
    table_->header_line = number;
    auto it = known_tests().find(name);
    if (it == known_tests().end())
      return;
    table_->test = &it->second;
    if (!accelerator.empty())
      out_.backend = "cuda";
    out_.versions["osu"] = version;
    if (table_->test->kind == OsuKind::collective && options_.np < 1) {
      throw InputError("--np: required for " + source_ + " (OSU " + name +
                       " output does not say how many ranks ran; give mpirun's -np)");
    }
  }

  bool row(std::size_t number, std::string_view t) {
    const auto tokens = split_whitespace(t);
    const auto& columns = table_->columns;
    if (tokens.size() < columns.size() && table_->rows > 0 && table_->stopped.empty()) {
      // A row cut short: the output stopped while it was being written.
      table_->stopped = std::string(t);
      table_->stopped_line = number;
    }
    if (tokens.size() != columns.size())
      return false;
    const auto size = parse_long(tokens[0]);
    if (!size || *size < 0)
      return false;
    std::map<std::string, double> values;
    DataCheck check = DataCheck::skipped;
    for (std::size_t c = 1; c < columns.size(); ++c) {
      if (columns[c] == "Validation") {
        if (tokens[c] != "Pass" && tokens[c] != "Fail")
          return false;
        check = tokens[c] == "Pass" ? DataCheck::pass : DataCheck::fail;
        continue;
      }
      const auto v = parse_double(tokens[c]);
      if (!v || *v < 0)
        return false;
      values[columns[c]] = *v;
    }
    const OsuTest& test = *table_->test;
    const int ranks = test.kind == OsuKind::collective ? options_.np : 2;
    json metrics;
    double seconds = 0;
    json params = {{"bytes", *size}, {"dtype", table_->dtype}};
    if (test.kind == OsuKind::collective) {
      auto avg = values.find("Avg Latency(us)");
      if (avg == values.end())
        return false;
      const double bytes = static_cast<double>(*size) * (test.times_ranks ? ranks : 1);
      const double time_us = avg->second;
      seconds = time_us * 1e-6;
      const double algbw = seconds > 0 ? bytes / seconds / 1e9 : 0.0;
      metrics = {{"time_us", time_us},
                 {"algbw_gbps", algbw},
                 {"busbw_gbps", algbw * busbw_factor(collective_from_name(test.case_name), ranks)}};
      if (auto it = values.find("Min Latency(us)"); it != values.end())
        metrics["min_time_us"] = it->second;
      if (auto it = values.find("Max Latency(us)"); it != values.end())
        metrics["max_time_us"] = it->second;
      params["bytes"] = static_cast<long long>(bytes);
      params["message_bytes"] = *size;
      if (test.case_name == "all_reduce" || test.case_name == "reduce")
        params["op"] = "sum";
      params["in_place"] = false;
    } else if (test.kind == OsuKind::latency) {
      auto it = values.find("Avg Latency(us)");
      if (it == values.end())
        it = values.find("Latency (us)");
      if (it == values.end())
        return false;
      seconds = it->second * 1e-6;
      metrics = {{"latency_us", it->second}};
    } else {
      auto it = values.find("Bandwidth (MB/s)");
      if (it == values.end())
        it = values.find("Bi-Bandwidth (MB/s)");
      if (it == values.end())
        return false;
      const double gbps = it->second / 1e3; // OSU's MB are 1e6 bytes
      const double moved =
          static_cast<double>(*size) * (test.kind == OsuKind::bidirectional ? 2 : 1);
      seconds = gbps > 0 ? moved / (gbps * 1e9) : 0.0;
      metrics = {{"gbps", gbps}};
    }
    if (const std::string why = implausible_rate(metrics); !why.empty())
      throw InputError(source_ + ":" + std::to_string(number) + ": " + why);
    Record r = imported_record(
        test.kind == OsuKind::collective ? suite_names::kCollectives : suite_names::kLinks,
        test.case_name, std::move(params), ranks,
        test.kind == OsuKind::collective ? options_.nodes : std::min(options_.nodes, 2), seconds,
        std::move(metrics), check);
    r.extra = {{"tool", kTool},
               {"source", source_ + ":" + std::to_string(number)},
               {"test", "OSU MPI" + (table_->accelerator.empty() ? "" : "-" + table_->accelerator) +
                            " " + table_->name + " Test v" + table_->version}};
    if (test.kind == OsuKind::bidirectional)
      r.extra["bidirectional"] = true;
    if (!table_->buffers.empty())
      r.extra["buffers"] = table_->buffers;
    if (seconds <= 0)
      return false;          // a zero time or rate is no figure
    table_->stopped.clear(); // rows went on: what looked like the end was noise between them
    table_->records.push_back(std::move(r));
    ++table_->rows;
    table_->last_size = *size;
    return true;
  }

  std::string source_;
  OsuOptions options_;
  ImportedRun out_;
  std::optional<Table> table_;
};

} // namespace

ImportedRun import_osu_text(const std::string& text, const std::string& source,
                            const OsuOptions& options, const RecordSink& sink) {
  return OsuImporter(shown(source, 100), options, sink).run(text);
}

ImportedRun import_osu_file(const std::string& path, const OsuOptions& options,
                            const RecordSink& sink) {
  return import_osu_text(read_text_file(path), path, options, sink);
}

} // namespace cb
