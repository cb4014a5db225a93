#include "imports/nccl_tests_import.hpp"
#include "results/json_file.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <iterator>
#include <map>
#include <optional>
#include <set>

#include "core/collective_math.hpp"
#include "core/error.hpp"
#include "imports/text_lines.hpp"

namespace cb {
namespace {

using nlohmann::json;

constexpr const char* kTool = "nccl-tests";
// Longest name, host, version or argument kept from a file: longer ones are not what nccl-tests
// prints, and copying them would let one line fill the results file.
constexpr std::size_t kMaxWord = 256;
constexpr std::size_t kMaxArgs = 512;

// What the check column of a table holds. nccl-tests before 2.13 compared results with a host
// reference and printed "error", the largest deviation of any element (a float such as 5e-07,
// %e-formatted); it judged a row by that deviation against a tolerance of the data type and
// counted the rows over it in "# Out of bounds values". Since the verifiable-data check
// (2.13), the column is "#wrong", the number of wrong elements (an integer). A deviation is not
// a count: 5e-07 in an "error" column is a clean float reduction.
enum class CheckColumn { wrong_count, max_deviation };

// Where each column sits in a data row, from the "#  size  count  type ..." header.
struct Layout {
  int size = 0, count = 1, type = 2;
  int redop = -1, root = -1; // -1: the layout has no such column (old all_gather, broadcast)
  int lead = 5;              // columns before the out-of-place group
  int group = 4;             // time algbw busbw #wrong (+ #bitdiff, i_min ... with other options)
  int trailing = 0;          // values after the in-place group (a timestamp prints as two)
  CheckColumn check = CheckColumn::wrong_count;
};

std::optional<Layout> layout_from_header(const std::vector<std::string>& tokens) {
  Layout l;
  std::vector<int> starts;
  for (int i = 0; i < static_cast<int>(tokens.size()); ++i) {
    if (tokens[i] == "time" || tokens[i] == "cputime")
      starts.push_back(i);
  }
  if (starts.size() != 2)
    return std::nullopt;
  l.lead = starts[0];
  l.group = starts[1] - starts[0];
  if (l.group < 4)
    return std::nullopt;
  const std::string& check = tokens[static_cast<std::size_t>(starts[0] + 3)];
  if (check == "#wrong") {
    l.check = CheckColumn::wrong_count;
  } else if (check == "error") {
    l.check = CheckColumn::max_deviation;
  } else {
    return std::nullopt;
  }
  auto find = [&](const char* name) {
    for (int i = 0; i < l.lead; ++i) {
      if (tokens[static_cast<std::size_t>(i)] == name)
        return i;
    }
    return -1;
  };
  l.size = find("size");
  l.count = find("count");
  l.type = find("type");
  l.redop = find("redop");
  l.root = find("root");
  if (l.size < 0 || l.count < 0 || l.type < 0)
    return std::nullopt;
  for (std::size_t i = static_cast<std::size_t>(starts[1] + l.group); i < tokens.size(); ++i)
    l.trailing += tokens[i] == "timestamp" ? 2 : 1; // "2025-06-01 10:00:00"
  return l;
}

struct Half {
  double time_us = 0, algbw = 0, busbw = 0;
  DataCheck check = DataCheck::skipped;
  std::optional<long long> wrong;      // #wrong
  std::optional<double> max_deviation; // error
  bool noisy = false;                  // clusterbench's "~" after the check: not settled
};

// "" or why a row's figures contradict one another or physics: nccl-tests defines algbw as size /
// time and busbw as algbw times a factor of the collective and the rank count (its
// PERFORMANCE.md), so an edited or garbled figure shows. The slack covers the printing: bandwidths
// to 2 decimals, the time to 2, 1 or 0 decimals as it grows.
std::string implausible_half(const Half& h, long long bytes, const std::string& collective,
                             int ranks) {
  char text[240];
  if (bytes < 0) {
    std::snprintf(text, sizeof text, "size %lld is negative", bytes);
    return text;
  }
  const double t = h.time_us;
  const double slack_us = 0.006 + 0.001 * t;
  const double b = static_cast<double>(bytes);
  const double rate = b / (t * 1e3); // GB/s: bytes per microsecond / 1e3
  const double lowest = b / ((t + slack_us) * 1e3) * 0.98 - 0.011;
  const double highest = t > slack_us ? b / ((t - slack_us) * 1e3) * 1.02 + 0.011 : HUGE_VAL;
  if (h.algbw < lowest || h.algbw > highest) {
    std::snprintf(text, sizeof text,
                  "algbw %.4g GB/s is not its size over its time (%lld B in %.4g us is %.4g GB/s)",
                  h.algbw, bytes, t, rate);
    return text;
  }
  std::optional<double> factor;
  try {
    // A log without its device lines reads as 1 GPU: the factor is known from 2 on.
    if (ranks >= 2)
      factor = busbw_factor(collective_from_name(collective), ranks);
  } catch (const InputError&) {
    // gather, scatter, hypercube: a factor clusterbench does not model; algbw was checked
  }
  if (factor) {
    const double expected = h.algbw * *factor;
    if (std::abs(h.busbw - expected) > 0.02 * expected + 0.011 + 0.005 * *factor) {
      std::snprintf(text, sizeof text,
                    "busbw %.4g GB/s is not algbw %.4g x %.4g, the bus factor of %s on %d GPUs",
                    h.busbw, h.algbw, *factor, collective.c_str(), ranks);
      return text;
    }
  }
  return implausible_rate({{"busbw_gbps", h.busbw}});
}

std::optional<Half> half_from(const std::vector<std::string>& t, int at, CheckColumn column) {
  const auto i = static_cast<std::size_t>(at);
  auto time = parse_double(t[i]);
  auto algbw = parse_double(t[i + 1]);
  auto busbw = parse_double(t[i + 2]);
  if (!time || !algbw || !busbw || *time <= 0 || *algbw < 0 || *busbw < 0)
    return std::nullopt;
  Half h;
  h.time_us = *time;
  h.algbw = *algbw;
  h.busbw = *busbw;
  std::string_view check = t[i + 3];
  if (check.size() > 1 && check.back() == '~') { // clusterbench's table: samples not settled
    h.noisy = true;
    check.remove_suffix(1);
  }
  if (check == "N/A")
    return h; // checking was off (-c 0)
  if (column == CheckColumn::wrong_count) {
    // A count is an integer: "5e-07" under "#wrong" is not a layout nccl-tests prints.
    const auto wrong = parse_long(check);
    if (!wrong || *wrong < 0)
      return std::nullopt;
    h.wrong = *wrong;
    h.check = *wrong == 0 ? DataCheck::pass : DataCheck::fail;
  } else {
    const auto deviation = parse_double(check);
    if (!deviation || *deviation < 0)
      return std::nullopt;
    h.max_deviation = *deviation; // judged with the block's footer (see judge_deviations)
  }
  return h;
}

// The tolerance nccl-tests before 2.13 allowed a deviation of one element (DeltaMaxValue in its
// common.cu), by the type name its table prints; nullopt for a type it had none for.
std::optional<double> deviation_tolerance(std::string_view type) {
  if (type == "half" || type == "bfloat16")
    return 1e-2;
  if (type == "float")
    return 1e-5;
  if (type == "double")
    return 1e-12;
  static const char* integers[] = {"int8",  "uint8",  "int32", "uint32",
                                   "int64", "uint64", "char",  "int"};
  for (const char* name : integers) {
    if (type == name)
      return 0.0;
  }
  return std::nullopt;
}

// The type names nccl-tests prints (test_typenames in its common.cu, old and new).
bool known_type(std::string_view type) {
  static const char* names[] = {"int8",  "uint8",  "int32",    "uint32", "int64",  "uint64", "half",
                                "float", "double", "bfloat16", "f8e4m3", "f8e5m2", "char",   "int"};
  return std::any_of(std::begin(names), std::end(names), [&](const char* n) { return type == n; });
}

// clusterbench's own type names, as its collectives table prints them (runtime/dtype.cpp).
bool own_type(std::string_view type) {
  static const char* names[] = {"float", "double", "int32", "bf16", "fp16", "fp8"};
  return std::any_of(std::begin(names), std::end(names), [&](const char* n) { return type == n; });
}

// Its reduction names (test_opnames), "none" for collectives that do not reduce.
bool known_redop(std::string_view op) {
  static const char* names[] = {"sum", "prod", "max", "min", "avg", "mulsum", "none"};
  return std::any_of(std::begin(names), std::end(names), [&](const char* n) { return op == n; });
}

// A count from digits; -1 when it is not one or does not fit a plausible count.
int small_count(std::string_view digits) {
  const auto value = parse_long(digits);
  return value && *value >= 0 && *value <= 1 << 24 ? static_cast<int>(*value) : -1;
}

struct RankLine {
  int rank;
  std::string host;
  int device;
  std::string bus;
  std::string name;
};

std::optional<RankLine> rank_line(std::string_view line) {
  // 2.13+: "#  Rank  0 Group  0 Pid 12345 on node1 device  0 [0000:18:00] NVIDIA H100 80GB HBM3"
  // older: "#   Rank  0 Pid   1320 on node1 device  0 [0x1b] Tesla V100-SXM2-16GB"
  const auto t = split_whitespace(line.substr(1));
  std::size_t i = 0;
  auto next_is = [&](const char* word) { return i < t.size() && t[i] == word; };
  if (!next_is("Rank") || i + 1 >= t.size())
    return std::nullopt;
  const int rank = small_count(t[i + 1]);
  i += 2;
  if (next_is("Group"))
    i += 2;
  if (!next_is("Pid"))
    return std::nullopt;
  i += 2;
  if (!next_is("on") || i + 1 >= t.size())
    return std::nullopt;
  const std::string host = t[i + 1];
  i += 2;
  if (!next_is("device") || i + 2 >= t.size())
    return std::nullopt;
  const int device = small_count(t[i + 1]);
  const std::string& bus = t[i + 2];
  if (rank < 0 || device < 0 || bus.size() < 2 || bus.size() > 64 || bus.front() != '[' ||
      bus.back() != ']' || host.size() > kMaxWord) {
    return std::nullopt;
  }
  std::string name;
  for (std::size_t k = i + 3; k < t.size() && name.size() <= kMaxWord; ++k)
    name += (name.empty() ? "" : " ") + t[k];
  if (name.size() > kMaxWord)
    return std::nullopt;
  return RankLine{rank, clean_text(host), device, clean_text(bus.substr(1, bus.size() - 2)),
                  clean_text(name)};
}

// "# Out of bounds values : 0 OK" -> 0; the words after a "NAME :" comment as tokens.
std::vector<std::string> after_colon(std::string_view t) {
  const std::size_t colon = t.find(':');
  return colon == std::string_view::npos ? std::vector<std::string>{}
                                         : split_whitespace(t.substr(colon + 1));
}

// The *_perf program a command line runs ("./build/all_reduce_perf", "alltoall_perf_mpi"), and
// the position of its token; nullopt when the line runs none.
std::optional<std::size_t> program_token(const std::vector<std::string>& tokens) {
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    if (!nccl_case_from_program(tokens[i]).empty())
      return i;
  }
  return std::nullopt;
}

// A data row as read; its records are made when its block ends (a Record, of nlohmann trees, is
// some twenty times the row's text: a table of 100,000 rows held as records took gigabytes).
struct Row {
  std::size_t line = 0;
  long long size = 0, count = 0, root = -1;
  std::string type, redop;
  std::optional<Half> out_of_place, in_place;
};

// A footer's figure ("Avg bus bandwidth", "Out of bounds values"), for the rows read before it.
struct BlockExtra {
  std::string key;
  double value = 0;
  std::size_t rows = 0;
};

// One run of one *_perf program: its header facts and the rows of its table.
struct Block {
  std::string program;
  int threads = 1, gpus_per_thread = 1;
  std::vector<RankLine> ranks;
  std::optional<Layout> layout;
  // Its rows, made records (and handed on) when the block ends: its footer judges them.
  std::vector<Row> rows;
  std::vector<BlockExtra> extras;
  std::string case_name; // of every row: the program or the file names it
  std::size_t first_line = 0;
  std::optional<long long> out_of_bounds; // the footer's count, when the block has one
  // The run's shape, fixed at its first row: GPUs, nodes (devices are recorded then).
  int gpus = 0, nodes = 0;
  // A table clusterbench printed ("# collectives all_reduce on 8 ranks (1 node, intra), ..."):
  // its heading names the case and the shape, its types are ours, and a half it skipped
  // ("skip - - -") is absent rather than unreadable.
  std::string own_case;
};

class TextImporter {
public:
  TextImporter(std::string source, RecordSink sink) : source_(std::move(source)) {
    out_.sink = std::move(sink);
    // nccl-tests runs on GPUs; a clusterbench console log names its own backend in its headings.
    out_.backend = "cuda";
  }

  ImportedRun run(std::string_view text) {
    for_each_line(text, [&](std::size_t number, std::string_view raw) { line(number, raw); });
    finish_block();
    out_.close_warnings(source_);
    out_.finish_hosts();
    if (debug_lines_ > 0) {
      out_.warnings.push_back(source_ + ":" + std::to_string(first_debug_line_) + ": skipped " +
                              std::to_string(debug_lines_) +
                              " NCCL debug line(s) (NCCL_DEBUG output, not part of the table)");
    }
    if (zero_size_rows_ > 0) {
      out_.warnings.push_back(source_ + ":" + std::to_string(first_zero_size_line_) + ": " +
                              std::to_string(zero_size_rows_) +
                              " zero-size row(s) not imported (0 bytes: nothing moved to time)");
    }
    if (out_.records_added == 0) {
      throw InputError(source_ + ": no nccl-tests table found (expected the '#  size  count  type "
                                 "redop ...' header of an *_perf run and its rows)");
    }
    return std::move(out_);
  }

private:
  static bool tool_output(std::string_view rest) {
    return rest.empty() || rest[0] == '#' || std::isdigit(static_cast<unsigned char>(rest[0]));
  }

  void line(std::size_t number, std::string_view raw) {
    if (raw.find(" NCCL INFO ") != std::string_view::npos ||
        raw.find(" NCCL WARN ") != std::string_view::npos) {
      if (debug_lines_++ == 0)
        first_debug_line_ = number;
      return;
    }
    const std::string_view t = trim(strip_launcher_prefix(raw, tool_output));
    if (t.empty() || is_code_fence(t))
      return;
    if (t[0] == '#')
      return comment(number, t, raw);
    if (other_suite_)
      return;
    if (std::isdigit(static_cast<unsigned char>(t[0])))
      return row(number, t, raw);
    // The command that ran the test, echoed by a shell prompt ("user@host:~$ mpirun ...
    // all_reduce_perf ...") or `set -x` ("+ srun ..."): it names the run that follows.
    const auto tokens = split_whitespace(t);
    if (const auto at = program_token(tokens)) {
      command(tokens, *at);
      return;
    }
    out_.warn_line(source_, number, std::string(trim(raw)));
  }

  void command(const std::vector<std::string>& tokens, std::size_t program_at) {
    // The command starts after the prompt: the last "...$", "...#", "...>" or "+" word before
    // the program.
    std::size_t start = 0;
    for (std::size_t i = 0; i < program_at; ++i) {
      const std::string& w = tokens[i];
      if (w == "+" || w.back() == '$' || w.back() == '#' || w.back() == '>')
        start = i + 1;
    }
    const bool plausible = tokens.size() - start <= kMaxArgs &&
                           std::all_of(tokens.begin(), tokens.end(),
                                       [](const std::string& w) { return w.size() <= kMaxWord; });
    if (out_.argv.empty() && plausible)
      std::transform(tokens.begin() + static_cast<std::ptrdiff_t>(start), tokens.end(),
                     std::back_inserter(out_.argv),
                     [](const std::string& w) { return clean_text(w); });
    // A new command is a new run: the table before it is complete.
    if (block_ && (!block_->rows.empty() || block_->layout))
      finish_block();
    pending_program_ = base_name(tokens[program_at]);
  }

  void comment(std::size_t number, std::string_view t, std::string_view raw) {
    const auto words = split_whitespace(t.substr(1));
    auto first_words = [&](std::initializer_list<const char*> expected) {
      std::size_t i = 0;
      for (const char* w : expected) {
        if (i >= words.size() || words[i] != w)
          return false;
        ++i;
      }
      return true;
    };
    if (words.empty())
      return;
    if (own_heading(number, words))
      return;
    if (first_words({"clusterbench", "run:"})) {
      clusterbench_log_ = true; // a clusterbench console log: its own comment lines follow
      return;
    }
    if (other_suite_)
      return; // the rows of another clusterbench suite in the same console log
    if (block_ && !block_->own_case.empty() && first_words({"skipped:"}))
      return; // the reason a clusterbench row skipped a half, said once per table
    if (first_words({"nccl-tests", "version"}) && words.size() >= 3 && words[2].size() <= 32) {
      out_.versions["nccl_tests"] = clean_text(words[2]);
      for (const auto& w : words) {
        if (starts_with(w, "nccl-library=")) {
          if (const auto code = parse_long(std::string_view(w).substr(13)); code && *code > 0)
            out_.versions["nccl"] = nccl_version_from_code(*code);
        }
      }
      return;
    }
    if (first_words({"Collective", "test", "starting:"}) && words.size() >= 4) {
      finish_block();
      pending_program_ = base_name(words[3]);
      start_block(number);
      return;
    }
    if (words[0] == "nThread" || words[0] == "nThreads:") {
      // Runs without the "starting" line begin here; so does the next of concatenated runs.
      if (!block_ || !block_->rows.empty() || block_->layout) {
        finish_block();
        start_block(number);
      }
      if (words.size() >= 4) {
        block_->threads = std::max(1, small_count(words[1]));
        block_->gpus_per_thread = std::max(1, small_count(words[3]));
      }
      return;
    }
    if (words[0] == "Rank") {
      if (auto r = rank_line(t); r && block_ && block_->rows.empty()) {
        block_->ranks.push_back(*r);
        return;
      }
      return out_.warn_line(source_, number, std::string(trim(raw)));
    }
    const bool column_header = std::find(words.begin(), words.end(), "size") != words.end() &&
                               std::find(words.begin(), words.end(), "count") != words.end();
    if (column_header) {
      if (!block_ || !block_->rows.empty()) {
        finish_block();
        start_block(number);
      }
      block_->layout = layout_from_header(words);
      if (!block_->layout)
        out_.warn_line(source_, number, std::string(trim(raw)));
      return;
    }
    if (first_words({"Avg", "bus", "bandwidth"})) {
      const auto value = after_colon(t);
      if (block_ && !value.empty())
        set_block_extra("avg_bus_bandwidth_gbps", parse_double(value[0]));
      return;
    }
    if (first_words({"Out", "of", "bounds", "values"})) {
      const auto value = after_colon(t);
      const auto count = value.empty() ? std::nullopt : parse_long(value[0]);
      if (!count || *count < 0)
        return out_.warn_line(source_, number, std::string(trim(raw)));
      if (block_) {
        block_->out_of_bounds = *count;
        set_block_extra("out_of_bounds", static_cast<double>(*count));
      }
      return;
    }
    static const std::vector<std::string> known = {
        "# Collective test concluded", "# Using devices",         "# Blocking Enabled",
        "# Per-Iteration Report",      "# Parallel Init Enabled", "# GPU memory usage",
        "# Writing JSON output",       "# skipping json output",  "# error:",
        "# Device memory usage",       "# NCCL version",          "# Writing results"};
    const bool is_known = t == "#" || t.find("out-of-place") != std::string_view::npos ||
                          t.find("(B)") != std::string_view::npos ||
                          std::any_of(known.begin(), known.end(),
                                      [&](const std::string& k) { return starts_with(t, k); });
    // clusterbench's own comment lines (its plan, the time per phase, the summary) are not
    // tables; a foreign log's unknown comment is worth a warning.
    if (!is_known && !clusterbench_log_)
      out_.warn_line(source_, number, std::string(trim(raw)));
  }

  // "# SUITE CASE on N rank(s) (M node(s), TIER), backend B": clusterbench's table heading. A
  // collectives heading starts a block of that case and shape; any other suite's heading starts
  // a section whose lines are not ours to read.
  bool own_heading(std::size_t number, const std::vector<std::string>& words) {
    static const std::vector<std::string> suites = {"compute", "links", "collectives", "storage",
                                                    "workload"};
    if (words.size() < 9 || words[2] != "on" || (words[4] != "ranks" && words[4] != "rank") ||
        words[words.size() - 2] != "backend" ||
        std::find(suites.begin(), suites.end(), words[0]) == suites.end()) {
      return false;
    }
    finish_block();
    clusterbench_log_ = true;
    other_suite_ = words[0] != "collectives";
    if (other_suite_)
      return true;
    const int ranks = small_count(words[3]);
    const int nodes = words[5].size() > 1 ? small_count(std::string_view(words[5]).substr(1)) : -1;
    static const std::vector<std::string> cases = {"all_reduce", "all_gather", "reduce_scatter",
                                                   "broadcast", "alltoall"};
    if (ranks <= 0 || nodes <= 0 || nodes > ranks ||
        std::find(cases.begin(), cases.end(), words[1]) == cases.end()) {
      out_.warn_line(source_, number, "unreadable clusterbench table heading");
      return true;
    }
    start_block(number);
    block_->own_case = words[1];
    block_->gpus = ranks;
    block_->nodes = nodes;
    const std::string& backend = words.back();
    if (backend == "cuda" || backend == "host")
      out_.backend = backend;
    return true;
  }

  void set_block_extra(const char* key, std::optional<double> value) {
    if (!value)
      return;
    block_->extras.push_back({key, *value, block_->rows.size()});
  }

  void start_block(std::size_t number) {
    block_ = Block{};
    block_->program = pending_program_;
    block_->first_line = number;
    pending_program_.clear();
  }

  // Rows of an "error" table get their check here, once the footer is known: the tool's own
  // verdict "Out of bounds values : 0" passes every row; otherwise (values out of bounds, or a
  // log cut before the footer) a row passes when its deviation is within the tightest tolerance
  // nccl-tests used for its type, fails when it exceeds the loosest (tolerance x (ranks - 1)), and
  // is left unjudged in between, with the reason.
  void judge_deviation(Record& r) const {
    auto it = r.extra.find("max_deviation");
    if (it == r.extra.end())
      return;
    const bool clean = block_->out_of_bounds && *block_->out_of_bounds == 0;
    const double deviation = it->get<double>();
    const auto tolerance = deviation_tolerance(r.extra.value("nccl_type", ""));
    const double loosest = tolerance ? *tolerance * std::max(1, r.gpus - 1) : 0;
    if (clean || (tolerance && deviation <= *tolerance) || deviation == 0) {
      r.check = DataCheck::pass;
    } else if (tolerance && deviation > loosest) {
      r.check = DataCheck::fail;
    } else {
      r.check = DataCheck::skipped;
      r.extra["check_note"] =
          block_->out_of_bounds
              ? "deviation between the tolerances nccl-tests versions used; the footer counts "
                "values out of bounds without naming the rows"
              : "no 'Out of bounds values' line to say whether the deviation was in bounds";
    }
  }

  Record record_of(const Row& row, const Half& half, bool in_place) const {
    if (const std::string why = implausible_half(half, row.size, block_->case_name, block_->gpus);
        !why.empty()) {
      throw InputError(source_ + ":" + std::to_string(row.line) + ": " + why);
    }
    json params = {{"bytes", row.size}, {"dtype", nccl_dtype(row.type)}};
    if (row.redop != "none")
      params["op"] = row.redop;
    if (row.root >= 0)
      params["root"] = row.root;
    params["in_place"] = in_place;
    Record r = imported_record(
        "collectives", block_->case_name, std::move(params), block_->gpus, block_->nodes,
        half.time_us * 1e-6,
        {{"time_us", half.time_us}, {"algbw_gbps", half.algbw}, {"busbw_gbps", half.busbw}},
        half.check);
    r.extra = {{"tool", kTool},
               {"source", source_ + ":" + std::to_string(row.line)},
               {"count", row.count}};
    if (half.wrong)
      r.extra["wrong_elements"] = *half.wrong;
    if (half.max_deviation) {
      r.extra["max_deviation"] = *half.max_deviation;
      r.extra["nccl_type"] = row.type;
    }
    if (half.noisy) {
      r.status = RecordStatus::noisy;
      r.reason = "marked '~' in the table: its samples had not settled";
    }
    return r;
  }

  // Each row's records (out-of-place, then in-place), with the footer's figures for the rows
  // before it and the check of an "error" table.
  void finish_block() {
    if (!block_)
      return;
    for (std::size_t i = 0; i < block_->rows.size(); ++i) {
      const Row& row = block_->rows[i];
      for (const auto& [half, in_place] :
           {std::pair{&row.out_of_place, false}, std::pair{&row.in_place, true}}) {
        if (!*half)
          continue;
        Record r = record_of(row, **half, in_place);
        for (const auto& e : block_->extras) {
          if (i < e.rows)
            r.extra[e.key] = e.value;
        }
        judge_deviation(r);
        if (!block_->program.empty())
          r.extra["test"] = block_->program;
        out_.add_record(std::move(r));
      }
    }
    block_.reset();
  }

  std::string case_name(std::size_t number) {
    if (!block_->own_case.empty())
      return block_->own_case;
    std::string name = nccl_case_from_program(block_->program);
    if (name.empty())
      name = nccl_case_from_file_name(source_);
    if (name.empty()) {
      throw InputError(source_ + ":" + std::to_string(number) +
                       ": cannot tell which collective this table measures (no 'Collective test "
                       "starting' line or *_perf command before it): name the file after the "
                       "test, e.g. all_reduce_perf.txt");
    }
    return name;
  }

  // The GPU and node counts of the block, and its devices in the run's host list, once.
  void fix_shape() {
    if (block_->gpus > 0)
      return;
    block_->gpus = block_->ranks.empty() ? block_->threads * block_->gpus_per_thread
                                         : static_cast<int>(block_->ranks.size());
    std::set<std::string> hosts;
    for (const auto& r : block_->ranks) {
      hosts.insert(r.host);
      out_.add_device(r.host, {{"index", r.device}, {"name", r.name}, {"pci_bus_id", r.bus}});
    }
    block_->nodes = std::max<int>(1, static_cast<int>(hosts.size()));
  }

  void row(std::size_t number, std::string_view t, std::string_view raw) {
    auto tokens = split_whitespace(t);
    if (!block_ || !block_->layout)
      return out_.warn_line(source_, number, std::string(trim(raw)));
    const Layout& l = *block_->layout;
    const int both_size = l.lead + 2 * l.group + l.trailing;
    const int in_place_size = l.lead + l.group + l.trailing; // trace replay: no out-of-place
    // alltoall and others print a blank redop in layouts that have the column: the row is one
    // token short and the number that follows sits where the redop would.
    if (l.redop >= 0 && static_cast<int>(tokens.size()) > l.redop &&
        (static_cast<int>(tokens.size()) == both_size - 1 ||
         static_cast<int>(tokens.size()) == in_place_size - 1) &&
        parse_double(tokens[static_cast<std::size_t>(l.redop)])) {
      tokens.insert(tokens.begin() + l.redop, "none");
    }
    const int n = static_cast<int>(tokens.size());
    const bool both = n == both_size;
    if (!both && n != in_place_size)
      return out_.warn_line(source_, number, std::string(trim(raw)));
    auto at = [&](int i) -> const std::string& { return tokens[static_cast<std::size_t>(i)]; };
    const auto size = parse_long(at(l.size));
    const auto count = parse_long(at(l.count));
    const auto root = l.root >= 0 ? parse_long(at(l.root)) : std::optional<long long>(-1);
    // The type and the reduction are names nccl-tests prints; anything else is not its row.
    const bool own = !block_->own_case.empty();
    if (!(known_type(at(l.type)) || (own && own_type(at(l.type)))) ||
        (l.redop >= 0 && !known_redop(at(l.redop))))
      return out_.warn_line(source_, number, std::string(trim(raw)));
    if (size && *size == 0) {
      if (zero_size_rows_++ == 0)
        first_zero_size_line_ = number;
      return;
    }
    // A half clusterbench did not run ("skip" or "-" for its time) has no record.
    auto skipped = [&](int at_half) {
      const std::string& time = at(at_half);
      return own && (time == "skip" || time == "-");
    };
    const int in_place_at = l.lead + (both ? l.group : 0);
    std::optional<Half> out_of_place;
    if (both && !skipped(l.lead))
      out_of_place = half_from(tokens, l.lead, l.check);
    std::optional<Half> in_place;
    if (!skipped(in_place_at))
      in_place = half_from(tokens, in_place_at, l.check);
    const bool halves_read = (in_place || skipped(in_place_at)) &&
                             (!both || out_of_place || skipped(l.lead)) &&
                             (in_place || out_of_place);
    if (!size || *size < 0 || !count || *count < 0 || !root || !halves_read)
      return out_.warn_line(source_, number, std::string(trim(raw)));
    block_->case_name = case_name(number);
    fix_shape();
    block_->rows.push_back({number, *size, *count, *root, at(l.type),
                            l.redop >= 0 ? at(l.redop) : "none", out_of_place, in_place});
  }

  std::string source_;
  ImportedRun out_;
  std::optional<Block> block_;
  std::string pending_program_; // named by a command line or "starting" line, for the next block
  bool other_suite_ = false;     // inside another clusterbench suite's section of a console log
  bool clusterbench_log_ = false; // the log is clusterbench's console output
  std::size_t debug_lines_ = 0;
  std::size_t first_debug_line_ = 0;
  std::size_t zero_size_rows_ = 0;
  std::size_t first_zero_size_line_ = 0;
};

// A string field, "" when absent, not a string, or longer than any the tool writes.
std::string json_string(const json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() && it->get_ref<const std::string&>().size() <= kMaxWord
             ? it->get<std::string>()
             : "";
}

std::optional<Half> half_from_json(const json& j) {
  if (!j.is_object())
    return std::nullopt;
  const json* time =
      j.contains("time") ? &j["time"] : (j.contains("cpu_time") ? &j["cpu_time"] : nullptr);
  if (!time || !time->is_number() || !j.contains("alg_bw") || !j["alg_bw"].is_number() ||
      !j.contains("bus_bw") || !j["bus_bw"].is_number()) {
    return std::nullopt;
  }
  Half h;
  h.time_us = time->get<double>();
  h.algbw = j["alg_bw"].get<double>();
  h.busbw = j["bus_bw"].get<double>();
  const json wrong = j.value("nwrong", json());
  if (!(h.time_us > 0) || h.algbw < 0 || h.busbw < 0)
    return std::nullopt; // not a time or rate nccl-tests prints
  if (wrong.is_number()) {
    if (wrong.get<double>() < 0)
      return std::nullopt;
    h.check = wrong.get<double>() == 0 ? DataCheck::pass : DataCheck::fail;
    if (wrong.get<double>() >= 0 && wrong.get<double>() < 9e18)
      h.wrong = static_cast<long long>(wrong.get<double>());
  }
  return h;
}

} // namespace

std::string nccl_case_from_program(std::string_view program) {
  const std::size_t slash = program.find_last_of('/');
  if (slash != std::string_view::npos)
    program.remove_prefix(slash + 1);
  // "<collective>_perf" or "<collective>_perf_mpi", nothing else: "all_reduce_perf.log" is a file.
  for (std::string_view suffix : {"_perf", "_perf_mpi"}) {
    if (program.size() <= suffix.size() ||
        program.substr(program.size() - suffix.size()) != suffix) {
      continue;
    }
    const std::string_view name = program.substr(0, program.size() - suffix.size());
    const bool word = name.size() <= 32 && std::all_of(name.begin(), name.end(), [](char c) {
                        return std::islower(static_cast<unsigned char>(c)) || c == '_';
                      });
    if (word && name.front() != '_')
      return std::string(name);
  }
  return "";
}

std::string nccl_case_from_file_name(const std::string& path) {
  // Spellings differ ("reduce_scatter", "reducescatter", "reduce-scatter", "AllGather"): compare
  // letters only, longest names first, and take a name only when it is the only one there
  // ("nccl_reducescatter.log" is reduce_scatter, not scatter; "allreduce_vs_allgather" is none).
  std::string letters;
  for (char c : base_name(path)) {
    if (std::isalpha(static_cast<unsigned char>(c)))
      letters += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  static const std::pair<const char*, const char*> cases[] = {{"reducescatter", "reduce_scatter"},
                                                              {"allreduce", "all_reduce"},
                                                              {"allgather", "all_gather"},
                                                              {"alltoall", "alltoall"},
                                                              {"broadcast", "broadcast"},
                                                              {"sendrecv", "sendrecv"},
                                                              {"hypercube", "hypercube"},
                                                              {"scatter", "scatter"},
                                                              {"gather", "gather"},
                                                              {"reduce", "reduce"},
                                                              {"bcast", "broadcast"}};
  std::string found;
  for (const auto& [spelling, name] : cases) {
    std::size_t at = letters.find(spelling);
    if (at == std::string::npos)
      continue;
    if (!found.empty() && found != name)
      return ""; // two collectives named: the file name does not say which
    found = name;
    for (; at != std::string::npos; at = letters.find(spelling, at))
      letters.replace(at, std::string_view(spelling).size(), "|");
  }
  return found;
}

std::string nccl_dtype(std::string_view type) {
  static const std::map<std::string, std::string, std::less<>> names = {
      {"half", "fp16"},   {"bfloat16", "bf16"}, {"f8e4m3", "fp8"}, {"f8e5m2", "fp8e5m2"},
      {"float", "float"}, {"double", "double"}, {"int32", "int32"}};
  auto it = names.find(type);
  return it == names.end() ? std::string(type) : it->second;
}

std::string nccl_version_from_code(long long code) {
  if (code >= 10000) {
    return std::to_string(code / 10000) + "." + std::to_string(code / 100 % 100) + "." +
           std::to_string(code % 100);
  }
  // Before 2.9 the code was major*1000 + minor*100 + patch.
  return std::to_string(code / 1000) + "." + std::to_string(code / 100 % 10) + "." +
         std::to_string(code % 100);
}

ImportedRun import_nccl_tests_text(const std::string& text, const std::string& source,
                                   const RecordSink& sink) {
  return TextImporter(shown(source, 100), sink).run(text);
}

namespace {

ImportedRun read_nccl_tests_json(const json& j, const std::string& source) {
  if (!j.is_object() || !j.contains("results") || !j["results"].is_array()) {
    throw InputError(source + ": not nccl-tests JSON output (no 'results' list; expected the "
                              "file written by an *_perf program's -J option)");
  }
  ImportedRun run;
  run.backend = "cuda";
  std::string program;
  if (j.contains("args") && j["args"].is_array()) {
    for (const auto& a : j["args"]) {
      if (a.is_string() && a.get_ref<const std::string&>().size() <= kMaxWord &&
          run.argv.size() < kMaxArgs) {
        run.argv.push_back(a.get<std::string>());
      }
    }
    if (!run.argv.empty())
      program = run.argv.front();
  }
  std::string name = nccl_case_from_program(program);
  if (name.empty())
    name = nccl_case_from_file_name(source);
  if (name.empty()) {
    throw InputError(source + ": field 'args' names no *_perf program and the file name names no "
                              "collective; cannot tell which collective this is");
  }
  if (j.contains("nccl_version") && j["nccl_version"].is_number_integer()) {
    run.versions["nccl"] = nccl_version_from_code(j["nccl_version"].get<long long>());
  }
  run.started = json_string(j, "start_time");
  const json config = j.value("config", json::object());
  std::set<std::string> hosts;
  int devices = 0;
  for (const auto& d : config.value("devices", json::array())) {
    if (!d.is_object())
      continue;
    ++devices;
    const std::string host = json_string(d, "hostname");
    hosts.insert(host);
    run.add_device(host, {{"index", d.value("device", 0)},
                          {"name", json_string(d, "device_info")},
                          {"pci_bus_id", json_string(d, "device_hex")}});
  }
  // Without MPI the device list holds the first GPU only; nthreads x ngpus is the count.
  const int threads_gpus = config.value("nthreads", 1) * config.value("ngpus", 1);
  const int gpus = std::max(devices, threads_gpus);
  const int nodes = std::max<int>(1, static_cast<int>(hosts.size()));
  const json avg = j.value("average_bus_bandwidth", json::object()).value("bandwidth", json());
  const json oob = j.value("out_of_bounds", json::object()).value("count", json());
  const auto& results = j["results"];
  for (std::size_t i = 0; i < results.size(); ++i) {
    const json& row = results[i];
    const std::string where = source + ": results[" + std::to_string(i) + "]";
    // A size is a count of bytes: nlohmann reads a non-negative integer as unsigned.
    if (!row.is_object() || !row.contains("size") || !row["size"].is_number_unsigned() ||
        row["size"].get<std::uint64_t>() > (std::uint64_t{1} << 62)) {
      run.warnings.push_back(where + ": cannot parse: " + row.dump());
      continue;
    }
    const std::string root_text(trim(json_string(row, "root")));
    const long long root = parse_long(root_text).value_or(-1);
    bool any = false;
    for (const auto& [key, in_place] :
         {std::pair{"out_of_place", false}, std::pair{"in_place", true}}) {
      const json half_json = row.value(key, json());
      if (half_json.is_null())
        continue; // trace replay writes no out-of-place figures
      const auto half = half_from_json(half_json);
      if (!half)
        continue;
      any = true;
      if (const std::string why = implausible_half(*half, row["size"].get<long long>(), name, gpus);
          !why.empty()) {
        throw InputError(where + ": " + why);
      }
      json params = {{"bytes", row["size"].get<long long>()},
                     {"dtype", nccl_dtype(json_string(row, "type"))}};
      const std::string redop = json_string(row, "redop");
      if (!redop.empty() && redop != "none")
        params["op"] = redop;
      if (root >= 0)
        params["root"] = root;
      params["in_place"] = in_place;
      Record r = imported_record(
          "collectives", name, std::move(params), gpus, nodes, half->time_us * 1e-6,
          {{"time_us", half->time_us}, {"algbw_gbps", half->algbw}, {"busbw_gbps", half->busbw}},
          half->check);
      const json count = row.value("count", json());
      r.extra = {{"tool", kTool},
                 {"source", where},
                 {"count", count.is_number_integer() ? count : json()}};
      if (half->wrong)
        r.extra["wrong_elements"] = *half->wrong;
      if (avg.is_number())
        r.extra["avg_bus_bandwidth_gbps"] = avg;
      if (oob.is_number())
        r.extra["out_of_bounds"] = oob;
      if (!program.empty())
        r.extra["test"] = base_name(program);
      run.records.push_back(std::move(r));
    }
    if (!any)
      run.warnings.push_back(where + ": cannot parse: " + row.dump());
  }
  if (run.records.empty())
    throw InputError(source + ": no results in the nccl-tests JSON output");
  run.finish_hosts();
  return run;
}

} // namespace

ImportedRun import_nccl_tests_json(const json& j, const std::string& source) {
  try {
    return read_nccl_tests_json(j, source);
  } catch (const json::exception& e) {
    // A field of an unexpected type: the file is not the layout documented in the header.
    std::string what = e.what();
    if (auto pos = what.find("] "); pos != std::string::npos)
      what = what.substr(pos + 2); // nlohmann's "[json.exception.type_error.302] "
    throw InputError(source + ": unexpected nccl-tests JSON layout (" + shown(what, 120) + ")");
  }
}

ImportedRun import_nccl_tests_file(const std::string& path, const RecordSink& sink) {
  const std::string text = read_text_file(path);
  const std::string_view body = trim(text);
  if (!body.empty() && body.front() == '{') {
    json j;
    try {
      j = parse_json_text(std::string(body), path);
    } catch (const InputError& e) {
      throw InputError(shown(e.what(), 250)); // the parser quotes what it read, bytes and all
    }
    return import_nccl_tests_json(j, shown(path, 100));
  }
  return import_nccl_tests_text(text, path, sink);
}

} // namespace cb
