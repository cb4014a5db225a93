#include "imports/nccl_tests_import.hpp"
#include "results/json_file.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <regex>
#include <set>

#include "core/error.hpp"
#include "imports/text_lines.hpp"

namespace cb {
namespace {

using nlohmann::json;

constexpr const char* kTool = "nccl-tests";

// Where each column sits in a data row, from the "#  size  count  type ..." header.
struct Layout {
  int size = 0, count = 1, type = 2, redop = 3, root = 4;
  int lead = 5;     // columns before the out-of-place group
  int group = 4;    // time algbw busbw #wrong (+ i_min i_max i_p99 i_cv% with -R)
  int trailing = 0; // a timestamp prints as two tokens
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
  auto find = [&](const char* name) {
    for (int i = 0; i < l.lead; ++i) {
      if (tokens[i] == name)
        return i;
    }
    return -1;
  };
  l.size = find("size");
  l.count = find("count");
  l.type = find("type");
  l.redop = find("redop");
  l.root = find("root");
  if (l.size < 0 || l.count < 0 || l.type < 0 || l.redop < 0)
    return std::nullopt;
  const int after = starts[1] + l.group;
  if (after < static_cast<int>(tokens.size()) && tokens[after] == "timestamp")
    l.trailing = 2;
  return l;
}

struct Half {
  double time_us, algbw, busbw;
  std::string check;
};

std::optional<Half> half_from(const std::vector<std::string>& t, int at) {
  auto time = parse_double(t[at]);
  auto algbw = parse_double(t[at + 1]);
  auto busbw = parse_double(t[at + 2]);
  if (!time || !algbw || !busbw)
    return std::nullopt;
  Half h{*time, *algbw, *busbw, "skipped"};
  if (t[at + 3] != "N/A") {
    auto wrong = parse_double(t[at + 3]);
    if (!wrong)
      return std::nullopt;
    h.check = *wrong == 0 ? "pass" : "fail";
  }
  return h;
}

// A count from a regex match of digits; -1 when it does not fit an int.
int small_count(const std::string& digits) {
  const auto value = parse_long(digits);
  return value && *value <= 1 << 24 ? static_cast<int>(*value) : -1;
}

struct RankLine {
  int rank;
  std::string host;
  int device;
  std::string bus;
  std::string name;
};

std::optional<RankLine> rank_line(const std::string& line) {
  // 2.13+: "#  Rank  0 Group  0 Pid 12345 on node1 device  0 [0000:18:00] NVIDIA H100 80GB HBM3"
  // older: "#   Rank  0 Pid   1320 on node1 device  0 [0x1b] Tesla V100-SXM2-16GB"
  static const std::regex re(R"(^#\s*Rank\s+(\d+)\s+(?:Group\s+\d+\s+)?Pid\s+\d+\s+on\s+(\S+)\s+)"
                             R"(device\s+(\d+)\s+\[([^\]]*)\]\s*(.*?)\s*$)");
  std::smatch m;
  if (!std::regex_match(line, m, re))
    return std::nullopt;
  const int rank = small_count(m[1]);
  const int device = small_count(m[3]);
  if (rank < 0 || device < 0)
    return std::nullopt;
  return RankLine{rank, m[2], device, m[4], m[5]};
}

// One run of one *_perf program: its header facts and the records of its table.
struct Block {
  std::string program;
  int threads = 1, gpus_per_thread = 1;
  std::vector<RankLine> ranks;
  std::optional<Layout> layout;
  std::vector<std::size_t> records; // indexes into ImportedRun::records
  std::size_t first_line = 0;
};

class TextImporter {
public:
  explicit TextImporter(std::string source) : source_(std::move(source)) {}

  ImportedRun run(const std::string& text) {
    const auto lines = split_lines(text);
    for (std::size_t i = 0; i < lines.size(); ++i)
      line(i + 1, std::string(strip_mpi_tag(lines[i])));
    finish_block();
    if (debug_lines_ > 0) {
      out_.warnings.push_back(source_ + ":" + std::to_string(first_debug_line_) + ": skipped " +
                              std::to_string(debug_lines_) +
                              " NCCL debug line(s) (NCCL_DEBUG output, not part of the table)");
    }
    if (out_.records.empty()) {
      throw InputError(source_ + ": no nccl-tests table found (expected the '#  size  count  type "
                                 "redop ...' header of an *_perf run and its rows)");
    }
    return std::move(out_);
  }

private:
  void line(std::size_t number, const std::string& text) {
    const std::string_view t = trim(text);
    if (t.empty())
      return;
    if (t.size() > kLongestToolLine)
      return out_.warn_line(source_, number, std::string(t));
    if (t.find(" NCCL INFO ") != std::string_view::npos ||
        t.find(" NCCL WARN ") != std::string_view::npos) {
      if (debug_lines_++ == 0)
        first_debug_line_ = number;
      return;
    }
    if (t[0] == '#')
      return comment(number, std::string(t));
    // A shell prompt or `set -x` trace of the command that ran the test: the original argv.
    if ((starts_with(t, "$ ") || starts_with(t, "+ ")) &&
        t.find("_perf") != std::string_view::npos) {
      if (out_.argv.empty())
        out_.argv = split_whitespace(t.substr(2));
      return;
    }
    if (std::isdigit(static_cast<unsigned char>(t[0])))
      return row(number, std::string(t));
    out_.warn_line(source_, number, std::string(t));
  }

  void comment(std::size_t number, const std::string& t) {
    static const std::regex version(R"(^# nccl-tests version (\S+).*nccl-library=(\d+))");
    static const std::regex starting(R"(^# Collective test starting:\s*(\S+))");
    static const std::regex nthread(R"(^# nThread (\d+) nGpus (\d+) )");
    static const std::regex avg(R"(^#\s*Avg bus bandwidth\s*:\s*(\S+))");
    static const std::regex oob(R"(^#\s*Out of bounds values\s*:\s*(\d+))");
    std::smatch m;
    if (std::regex_search(t, m, version)) {
      if (const auto code = parse_long(m[2].str()))
        out_.versions["nccl"] = nccl_version_from_code(*code);
      out_.versions["nccl_tests"] = m[1].str();
      return;
    }
    if (std::regex_search(t, m, starting)) {
      finish_block();
      start_block(number, m[1]);
      return;
    }
    if (std::regex_search(t, m, nthread)) {
      // Runs without the "starting" line begin here; so does the next of concatenated runs.
      if (!block_ || !block_->records.empty() || block_->layout) {
        finish_block();
        start_block(number, "");
      }
      block_->threads = std::max(1, small_count(m[1]));
      block_->gpus_per_thread = std::max(1, small_count(m[2]));
      return;
    }
    if (t.find("Rank") != std::string::npos && t.find(" Pid ") != std::string::npos) {
      if (auto r = rank_line(t); r && block_) {
        block_->ranks.push_back(*r);
        return;
      }
      return out_.warn_line(source_, number, t);
    }
    const auto tokens = split_whitespace(std::string_view(t).substr(1));
    const bool column_header = std::find(tokens.begin(), tokens.end(), "size") != tokens.end() &&
                               std::find(tokens.begin(), tokens.end(), "count") != tokens.end();
    if (column_header) {
      if (!block_)
        start_block(number, "");
      block_->layout = layout_from_header(tokens);
      if (!block_->layout)
        out_.warn_line(source_, number, t);
      return;
    }
    if (std::regex_search(t, m, avg)) {
      if (block_)
        set_block_extra("avg_bus_bandwidth_gbps", parse_double(m[1].str()));
      return;
    }
    if (std::regex_search(t, m, oob)) {
      if (block_)
        set_block_extra("out_of_bounds", parse_double(m[1].str()));
      return;
    }
    static const std::vector<std::string> known = {
        "# Collective test concluded", "# Using devices",         "# Blocking Enabled",
        "# Per-Iteration Report",      "# Parallel Init Enabled", "# GPU memory usage",
        "# Writing JSON output",       "# skipping json output",  "# error:"};
    const bool is_known = t == "#" || t.find("out-of-place") != std::string::npos ||
                          t.find("(B)") != std::string::npos ||
                          std::any_of(known.begin(), known.end(),
                                      [&](const std::string& k) { return starts_with(t, k); });
    if (!is_known)
      out_.warn_line(source_, number, t);
  }

  void set_block_extra(const char* key, std::optional<double> value) {
    if (!value)
      return;
    for (std::size_t i : block_->records)
      out_.records[i].extra[key] = *value;
  }

  void start_block(std::size_t number, const std::string& program) {
    block_ = Block{};
    block_->program = program;
    block_->first_line = number;
  }

  void finish_block() {
    if (!block_)
      return;
    const std::string program = block_->program;
    if (!program.empty()) {
      for (std::size_t i : block_->records)
        out_.records[i].extra["test"] = program;
    }
    block_.reset();
  }

  std::string case_name(std::size_t number) {
    std::string name = nccl_case_from_program(block_->program);
    if (name.empty())
      name = nccl_case_from_file_name(source_);
    if (name.empty()) {
      throw InputError(source_ + ":" + std::to_string(number) +
                       ": cannot tell which collective this table measures (no '# Collective "
                       "test starting' line and the file name names none); name the file after "
                       "the test, e.g. all_reduce_perf.txt");
    }
    return name;
  }

  void row(std::size_t number, const std::string& t) {
    const auto tokens = split_whitespace(t);
    if (!block_ || !block_->layout)
      return out_.warn_line(source_, number, t);
    const Layout& l = *block_->layout;
    const int n = static_cast<int>(tokens.size());
    const bool both = n == l.lead + 2 * l.group + l.trailing;
    const bool in_place_only =
        n == l.lead + l.group + l.trailing; // trace replay prints no out-of-place
    if (!both && !in_place_only)
      return out_.warn_line(source_, number, t);
    const auto size = parse_long(tokens[l.size]);
    const auto count = parse_long(tokens[l.count]);
    const auto root = l.root >= 0 ? parse_long(tokens[l.root]) : std::optional<long long>(-1);
    std::optional<Half> out_of_place;
    if (both)
      out_of_place = half_from(tokens, l.lead);
    const auto in_place = half_from(tokens, l.lead + (both ? l.group : 0));
    if (!size || !count || !root || !in_place || (both && !out_of_place)) {
      return out_.warn_line(source_, number, t);
    }
    const std::string name = case_name(number);
    const int gpus = block_->ranks.empty() ? block_->threads * block_->gpus_per_thread
                                           : static_cast<int>(block_->ranks.size());
    std::set<std::string> hosts;
    for (const auto& r : block_->ranks)
      hosts.insert(r.host);
    for (const auto& r : block_->ranks) {
      out_.add_device(r.host, {{"index", r.device}, {"name", r.name}, {"pci_bus_id", r.bus}});
    }
    const int nodes = std::max<int>(1, static_cast<int>(hosts.size()));
    for (const auto& [half, in_place_flag] :
         {std::pair{out_of_place, false}, std::pair{in_place, true}}) {
      if (!half)
        continue;
      json params = {{"bytes", *size}, {"dtype", nccl_dtype(tokens[l.type])}};
      if (tokens[l.redop] != "none")
        params["op"] = tokens[l.redop];
      if (*root >= 0)
        params["root"] = *root;
      params["in_place"] = in_place_flag;
      Record r = imported_record(
          "collectives", name, std::move(params), gpus, nodes, half->time_us * 1e-6,
          {{"time_us", half->time_us}, {"algbw_gbps", half->algbw}, {"busbw_gbps", half->busbw}},
          half->check);
      r.extra = {
          {"tool", kTool}, {"source", source_ + ":" + std::to_string(number)}, {"count", *count}};
      block_->records.push_back(out_.records.size());
      out_.records.push_back(std::move(r));
    }
  }

  std::string source_;
  ImportedRun out_;
  std::optional<Block> block_;
  std::size_t debug_lines_ = 0;
  std::size_t first_debug_line_ = 0;
};

std::string json_string(const json& j, const char* key) {
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : "";
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
  Half h{time->get<double>(), j["alg_bw"].get<double>(), j["bus_bw"].get<double>(), "skipped"};
  const json wrong = j.value("nwrong", json());
  if (wrong.is_number())
    h.check = wrong.get<double>() == 0 ? "pass" : "fail";
  return h;
}

} // namespace

std::string nccl_case_from_program(std::string_view program) {
  const std::size_t slash = program.find_last_of('/');
  if (slash != std::string_view::npos)
    program.remove_prefix(slash + 1);
  const std::size_t perf = program.find("_perf");
  if (perf == std::string_view::npos || perf == 0)
    return "";
  return std::string(program.substr(0, perf));
}

std::string nccl_case_from_file_name(const std::string& path) {
  const std::string name = base_name(path);
  // Longer names first: "all_reduce" before "reduce", "reduce_scatter" before "scatter".
  static const char* cases[] = {"reduce_scatter", "all_reduce", "all_gather", "alltoall",
                                "broadcast",      "sendrecv",   "hypercube",  "scatter",
                                "gather",         "reduce"};
  for (const char* c : cases) {
    if (name.find(c) != std::string::npos)
      return c;
  }
  return "";
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

ImportedRun import_nccl_tests_text(const std::string& text, const std::string& source) {
  ImportedRun run = TextImporter(source).run(text);
  run.backend = "cuda";
  return run;
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
      if (a.is_string())
        run.argv.push_back(a.get<std::string>());
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
    if (!row.is_object() || !row.contains("size") || !row["size"].is_number_integer()) {
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
      r.extra = {{"tool", kTool}, {"source", where}, {"count", row.value("count", json())}};
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
  return run;
}

} // namespace

ImportedRun import_nccl_tests_json(const json& j, const std::string& source) {
  try {
    return read_nccl_tests_json(j, source);
  } catch (const json::exception& e) {
    // A field of an unexpected type: the file is not the layout documented in the header.
    throw InputError(source + ": unexpected nccl-tests JSON layout (" + e.what() + ")");
  }
}

ImportedRun import_nccl_tests_file(const std::string& path) {
  const std::string text = read_text_file(path);
  const std::string_view body = trim(text);
  if (!body.empty() && body.front() == '{') {
    return import_nccl_tests_json(parse_json_text(std::string(body), path), path);
  }
  return import_nccl_tests_text(text, path);
}

} // namespace cb
