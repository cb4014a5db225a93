// The text reader of nccl-tests output (nccl_tests_import.hpp describes what it reads): lines in,
// one block per run of an *_perf program, each block's records handed on when it ends.
#include "imports/nccl_tests_import.hpp"

#include <algorithm>
#include <cctype>
#include <iterator>
#include <optional>
#include <set>

#include "core/error.hpp"
#include "imports/nccl_tests_lines.hpp"
#include "imports/nccl_tests_rules.hpp"
#include "imports/text_lines.hpp"
#include "results/suite_names.hpp"

namespace cb {
namespace {

using nlohmann::json;
using namespace nccl_tests;

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
        if (w.starts_with("nccl-library=")) {
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
                                      [&](const std::string& k) { return t.starts_with(k); });
    // clusterbench's own comment lines (its plan, the time per phase, the summary) are not
    // tables; a foreign log's unknown comment is worth a warning.
    if (!is_known && !clusterbench_log_)
      out_.warn_line(source_, number, std::string(trim(raw)));
  }

  // "# SUITE CASE on N rank(s) (M node(s), TIER), backend B": clusterbench's table heading. A
  // collectives heading starts a block of that case and shape; any other suite's heading starts
  // a section whose lines are not ours to read.
  bool own_heading(std::size_t number, const std::vector<std::string>& words) {
    if (words.size() < 9 || words[2] != "on" || (words[4] != "ranks" && words[4] != "rank") ||
        words[words.size() - 2] != "backend" ||
        std::find(std::begin(suite_names::kAll), std::end(suite_names::kAll), words[0]) ==
            std::end(suite_names::kAll)) {
      return false;
    }
    finish_block();
    clusterbench_log_ = true;
    other_suite_ = words[0] != suite_names::kCollectives;
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
    const HalfCheck checked =
        check_half(half, row.size, block_->case_name, block_->gpus, block_->layout->check);
    if (!checked.problem.empty())
      throw InputError(source_ + ":" + std::to_string(row.line) + ": " + checked.problem);
    json params = {{"bytes", row.size}, {"dtype", nccl_dtype(row.type)}};
    if (row.redop != "none")
      params["op"] = row.redop;
    if (row.root >= 0)
      params["root"] = row.root;
    params["in_place"] = in_place;
    Record r = imported_record(
        suite_names::kCollectives, block_->case_name, std::move(params), block_->gpus,
        block_->nodes, half.time_us * 1e-6,
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
    if (checked.per_rank_part) {
      r.metrics["algbw_gbps"] = static_cast<double>(row.size) / (half.time_us * 1e3);
      r.extra["algbw_printed_gbps"] = half.algbw;
      r.extra["bandwidth_definition"] = kPerRankPartDefinition;
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
  std::string pending_program_;   // named by a command line or "starting" line, for the next block
  bool other_suite_ = false;      // inside another clusterbench suite's section of a console log
  bool clusterbench_log_ = false; // the log is clusterbench's console output
  std::size_t debug_lines_ = 0;
  std::size_t first_debug_line_ = 0;
  std::size_t zero_size_rows_ = 0;
  std::size_t first_zero_size_line_ = 0;
};

} // namespace

ImportedRun import_nccl_tests_text(const std::string& text, const std::string& source,
                                   const RecordSink& sink) {
  return TextImporter(shown(source, 100), sink).run(text);
}

} // namespace cb
