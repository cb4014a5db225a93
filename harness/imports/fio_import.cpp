#include "imports/fio_import.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <ctime>
#include <map>
#include <optional>

#include "core/error.hpp"
#include "core/units.hpp"
#include "imports/fio_repeated_keys.hpp"
#include "imports/text_lines.hpp"
#include "results/json_file.hpp"
#include "results/suite_names.hpp"

namespace cb {
namespace {

using nlohmann::json;

constexpr const char* kTool = "fio";

// An option as fio printed it (always a string), job options over global ones.
std::optional<std::string> given_option(const json& job, const json& global, const char* key) {
  for (const json* scope : {&job, &global}) {
    auto it = scope->find(key);
    // Longer than any option value fio prints: not one (and not copied into the record).
    if (it != scope->end() && it->is_string() && it->get_ref<const std::string&>().size() <= 4096)
      return it->get<std::string>();
  }
  return std::nullopt;
}

std::string option(const json& job, const json& global, const char* key,
                   const std::string& fallback) {
  return given_option(job, global, key).value_or(fallback);
}

// The major version of "fio-3.33" / "fio-2.2.10"; 0 when the text is not one.
int fio_major(const std::string& version) {
  if (!version.starts_with("fio-"))
    return 0;
  const auto major = parse_long(std::string_view(version).substr(4, version.find('.') - 4));
  return major && *major > 0 && *major < 100 ? static_cast<int>(*major) : 0;
}

bool truthy(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text == "1" || text == "true" || text == "yes" || text == "on";
}

std::string iso_utc(long long seconds) {
  std::time_t t = static_cast<std::time_t>(seconds);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

double number_or(const json& j, const char* key, double fallback) {
  auto it = j.find(key);
  return it != j.end() && it->is_number() ? it->get<double>() : fallback;
}

// The jobs that make one record: same group, same name, consecutive.
struct Workload {
  std::vector<std::size_t> jobs;
};

class FioImporter {
public:
  FioImporter(const json& doc, std::string source) : doc_(doc), source_(std::move(source)) {}

  ImportedRun run() {
    if (!doc_.is_object() || !doc_.contains("jobs") || !doc_["jobs"].is_array()) {
      throw InputError(source_ + ": not fio JSON output (no 'jobs' list; run fio with "
                                 "--output-format=json)");
    }
    global_ = doc_.value("global options", json::object());
    if (doc_.contains("timestamp") && doc_["timestamp"].is_number_integer()) {
      out_.started = iso_utc(doc_["timestamp"].get<long long>());
    }
    if (doc_.contains("fio version") && doc_["fio version"].is_string() &&
        doc_["fio version"].get_ref<const std::string&>().size() <= 32) {
      out_.versions["fio"] = doc_["fio version"];
      major_ = fio_major(doc_["fio version"].get<std::string>());
    }
    for (const auto& w : workloads())
      add_record(w);
    if (out_.records.empty()) {
      std::string why = out_.warnings.empty() ? "" : "; " + out_.warnings.front();
      throw InputError(source_ +
                       ": no read job in the fio output (import reads rw=read and "
                       "rw=randread jobs" +
                       shown(why, 160) + ")");
    }
    return std::move(out_);
  }

private:
  std::vector<Workload> workloads() const {
    std::vector<Workload> list;
    const auto& jobs = doc_["jobs"];
    for (std::size_t i = 0; i < jobs.size(); ++i) {
      const bool continues =
          !list.empty() &&
          jobs[i].value("groupid", -1) == jobs[list.back().jobs[0]].value("groupid", -2) &&
          jobs[i].value("jobname", "") == jobs[list.back().jobs[0]].value("jobname", "?");
      if (!continues)
        list.push_back({});
      list.back().jobs.push_back(i);
    }
    return list;
  }

  std::string where(std::size_t i) const {
    return source_ + ": jobs[" + std::to_string(i) + "] (" +
           shown(doc_["jobs"][i].value("jobname", std::string("?")), 60) + ")";
  }

  void skip(std::size_t i, const std::string& why) {
    out_.warnings.push_back(where(i) + ": not imported: " + why);
  }

  // Bytes per unit of "io_bytes": fio 2.x wrote KiB there, fio 3.x bytes (with "io_kbytes"
  // beside it). Without a version the figures tell: io_bytes against bw (KiB/s) x runtime.
  std::optional<double> io_bytes_unit(const json& read) const {
    if (major_ >= 3)
      return 1.0;
    if (major_ == 2)
      return 1024.0;
    if (read.contains("io_kbytes") || read.contains("bw_bytes"))
      return 1.0;
    const double io = number_or(read, "io_bytes", 0);
    const double kib = number_or(read, "bw", 0) * number_or(read, "runtime", 0) / 1e3;
    if (io > 0 && kib > 0) {
      if (std::fabs(io - kib) <= 0.1 * kib)
        return 1024.0;
      if (std::fabs(io - kib * 1024) <= 0.1 * kib * 1024)
        return 1.0;
    }
    return std::nullopt;
  }

  // The read figures of a workload's jobs added up (bytes, I/Os, IOPS, latency weighted by I/Os),
  // its longest runtime, its jobs in error, and each job's own rate where there are several.
  struct JobSums {
    double bytes = 0, ios = 0, iops = 0, latency_weighted = 0, runtime_ms = 0;
    int errors = 0;
    json per_rank = json::array();
  };
  JobSums sum_jobs(const Workload& w, double unit) {
    JobSums sums;
    for (std::size_t k = 0; k < w.jobs.size(); ++k) {
      const json& job = doc_["jobs"][w.jobs[k]];
      const json read = job.value("read", json::object());
      const double job_bytes = number_or(read, "io_bytes", 0) * unit;
      const double job_runtime = number_or(read, "runtime", 0);
      const double job_ios = number_or(read, "total_ios", 0);
      sums.bytes += job_bytes;
      sums.ios += job_ios;
      sums.iops += number_or(read, "iops", 0);
      sums.runtime_ms = std::max(sums.runtime_ms, job_runtime);
      // fio 3: lat_ns (ns); fio 2: lat (us).
      const double latency_ns = read.contains("lat_ns")
                                    ? number_or(read.value("lat_ns", json::object()), "mean", 0)
                                    : number_or(read.value("lat", json::object()), "mean", 0) * 1e3;
      sums.latency_weighted += latency_ns * job_ios;
      sums.errors += job.value("error", 0) != 0 ? 1 : 0;
      if (w.jobs.size() > 1) {
        json entry = {{"rank", k}, {"job", shown(job.value("jobname", ""), 120)}};
        if (job.contains("hostname") && job["hostname"].is_string())
          entry["host"] = shown(job["hostname"].get<std::string>(), 255);
        entry["gbps"] = job_runtime > 0 ? job_bytes / (job_runtime / 1e3) / 1e9 : 0.0;
        sums.per_rank.push_back(std::move(entry));
      }
    }
    return sums;
  }

  void add_record(const Workload& w) {
    const json& first = doc_["jobs"][w.jobs[0]];
    if (!first.is_object() || !first.contains("read") || !first["read"].is_object()) {
      return skip(w.jobs[0], "no 'read' statistics");
    }
    const json options = first.value("job options", json::object());
    // Options the file does not give are fio's defaults; the record lists which were assumed.
    json assumed = json::array();
    auto setting = [&](const char* key, const char* alias, const char* fallback) {
      if (auto v = given_option(options, global_, key))
        return *v;
      if (auto v = given_option(options, global_, alias))
        return *v;
      assumed.push_back(std::string(key) + "=" + fallback);
      return std::string(fallback);
    };
    const std::string rw = setting("rw", "readwrite", "read");
    std::string case_name;
    if (rw == "read") {
      case_name = "seq_read";
    } else if (rw == "randread") {
      case_name = "rand_read";
    } else if (rw == "rw" || rw == "readwrite" || rw == "randrw" || rw == "trimwrite" ||
               rw == "randtrim" || rw == "trim") {
      // A read figure of a mixed job is not a read workload's: the writes shared the device.
      return skip(w.jobs[0], "rw=" + rw + " mixes reads with writes or trims (rwmixread=" +
                                 shown(option(options, global_, "rwmixread", "50"), 8) +
                                 "); only pure read jobs (rw=read, rw=randread) are imported");
    } else {
      return skip(w.jobs[0], "rw=" + shown(rw, 40) + " is not a read workload");
    }
    const json write_stats = first.value("write", json::object());
    if (write_stats.is_object() && number_or(write_stats, "io_bytes", 0) > 0) {
      return skip(w.jobs[0], "the job also wrote (write.io_bytes > 0): not a pure read workload");
    }
    const auto unit = io_bytes_unit(first["read"]);
    if (!unit) {
      return skip(w.jobs[0], "no 'fio version' and the figures do not say whether io_bytes is in "
                             "bytes (fio 3) or KiB (fio 2)");
    }
    std::string bs_text = setting("bs", "blocksize", "4k");
    bs_text = bs_text.substr(0, bs_text.find(',')); // "read,write" sizes: the read one
    std::uint64_t block_bytes = 0;
    try {
      block_bytes = parse_size(bs_text, "bs");
    } catch (const InputError&) {
      return skip(w.jobs[0], "cannot parse bs='" + shown(bs_text, 40) + "'");
    }
    const auto queue_depth = parse_long(setting("iodepth", "iodepth", "1"));
    const auto numjobs = parse_long(option(options, global_, "numjobs", "1"));
    if (!queue_depth || !numjobs)
      return skip(w.jobs[0], "cannot parse iodepth or numjobs");
    if (*queue_depth < 1 || *numjobs < 1) {
      return skip(w.jobs[0], "iodepth " + std::to_string(*queue_depth) + " and numjobs " +
                                 std::to_string(*numjobs) + ": fio runs 1 of each at least");
    }
    // Counted as GPUs and queue depths in the record: beyond these they wrapped around as ints
    // (numjobs 4294967298 became 2 jobs). fio's own iodepth cannot pass 65536.
    constexpr long kMostJobs = 1 << 20;
    constexpr long kMostQueueDepth = 65536;
    if (*queue_depth > kMostQueueDepth || *numjobs > kMostJobs) {
      return skip(w.jobs[0], "iodepth " + std::to_string(*queue_depth) + " or numjobs " +
                                 std::to_string(*numjobs) + ": more than fio runs (iodepth up to " +
                                 std::to_string(kMostQueueDepth) + ", numjobs up to " +
                                 std::to_string(kMostJobs) + ")");
    }

    JobSums sums = sum_jobs(w, *unit);
    const double bytes = sums.bytes, ios = sums.ios, iops = sums.iops;
    const double latency_weighted = sums.latency_weighted, runtime_ms = sums.runtime_ms;
    const int errors = sums.errors;
    json per_rank = std::move(sums.per_rank);
    if (!(bytes > 0))
      return skip(w.jobs[0], "no bytes read");
    if (!(runtime_ms > 0))
      return skip(w.jobs[0], "a runtime of 0 ms for the bytes it read: no rate to take");
    if (iops < 0 || ios < 0 || latency_weighted < 0)
      return skip(w.jobs[0], "negative iops, total_ios or latency: not figures fio writes");
    const double seconds = runtime_ms / 1e3;
    json metrics = {{"gbps", bytes / seconds / 1e9}, {"iops", iops}};
    if (ios > 0 && latency_weighted > 0)
      metrics["latency_us"] = latency_weighted / ios / 1e3;
    for (const json& rank : per_rank) {
      if (const std::string why = implausible_rate(rank); !why.empty())
        throw InputError(where(w.jobs[0]) + ": job " + rank["job"].get<std::string>() + ": " + why);
    }
    if (const std::string why = implausible_rate(metrics); !why.empty())
      throw InputError(where(w.jobs[0]) + ": " + why);
    const int jobs =
        w.jobs.size() > 1 ? static_cast<int>(w.jobs.size()) : static_cast<int>(*numjobs);
    // "io" is the storage suite's name for the same choice, so imported and measured records match.
    const bool direct = truthy(setting("direct", "direct", "0"));
    const bool verifies = option(options, global_, "verify", "0") != "0";
    json params = {{"block_bytes", block_bytes},
                   {"queue_depth", *queue_depth},
                   {"direct", direct},
                   {"io", direct ? "direct" : "buffered"}};
    // The file each job read, as the storage suite names it, when fio was told its size; the
    // sample is then the time of one pass over it, as the storage suite times it (a job that
    // looped over its file, time_based, made several passes).
    double sample_s = seconds;
    std::string size_note;
    if (auto size = given_option(options, global_, "size")) {
      std::uint64_t file_bytes = 0;
      try {
        file_bytes = parse_size(*size, "size");
      } catch (const InputError&) {
        size_note = *size; // "50%" and the like: a share of the device, not a size
      }
      if (file_bytes > 0) {
        params["file_bytes"] = file_bytes;
        const double passes = bytes / (static_cast<double>(file_bytes) * jobs);
        if (passes > 0)
          sample_s = seconds / passes;
      }
    }
    Record r = imported_record(
        suite_names::kStorage, case_name, std::move(params), jobs, 1, sample_s, std::move(metrics),
        verifies ? (errors == 0 ? DataCheck::pass : DataCheck::fail) : DataCheck::skipped);
    if (errors > 0) {
      r.status = RecordStatus::failed;
      r.reason = std::to_string(errors) + " fio job(s) reported an error";
    }
    r.per_rank = std::move(per_rank);
    r.extra = {{"tool", kTool},
               {"source", where(w.jobs[0])},
               {"jobname", shown(first.value("jobname", ""), 120)},
               {"rw", rw},
               {"ioengine", setting("ioengine", "ioengine", "psync")},
               {"io_bytes", bytes},
               {"runtime_ms", runtime_ms}};
    const std::string target =
        option(options, global_, "filename", option(options, global_, "directory", ""));
    if (!target.empty())
      r.extra["target"] = target;
    if (*unit != 1.0)
      r.extra["io_bytes_unit"] = "KiB (fio 2.x)";
    if (!assumed.empty())
      r.extra["assumed_defaults"] = assumed;
    if (!size_note.empty())
      r.extra["size"] = size_note;
    out_.records.push_back(std::move(r));
  }

  const json& doc_;
  std::string source_;
  json global_;
  int major_ = 0; // fio's major version, 0 when the file does not say
  ImportedRun out_;
};

// Where the JSON object opening at `start` ends (one past its closing brace), by counting braces
// outside strings; the text's end when it never closes (the parser then says what is wrong).
std::size_t json_object_end(const std::string& text, std::size_t start) {
  long long depth = 0;
  bool in_string = false;
  for (std::size_t i = start; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        in_string = false;
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      ++depth;
    } else if ((c == '}' || c == ']') && --depth == 0) {
      return i + 1;
    }
  }
  return text.size();
}

} // namespace

ImportedRun import_fio_json(const json& j, const std::string& source) {
  try {
    return FioImporter(j, source).run();
  } catch (const json::exception& e) {
    // A field of an unexpected type: not the layout fio writes.
    std::string what = e.what();
    if (auto pos = what.find("] "); pos != std::string::npos)
      what = what.substr(pos + 2); // nlohmann's "[json.exception.type_error.302] "
    throw InputError(source + ": unexpected fio JSON layout (" + shown(what, 120) + ")");
  }
}

ImportedRun import_fio_file(const std::string& path) {
  const std::string text = read_text_file(path);
  const std::string source = shown(path, 100);
  // The JSON document starts on the first line that begins with '{' (it may be all on that
  // line). Before it: fio's notes on stdout, or its normal text output under
  // --output-format=normal,json.
  std::size_t start = std::string::npos;
  std::size_t start_line = 0;
  std::vector<std::pair<std::size_t, std::string_view>> before;
  for_each_line(text, [&](std::size_t number, std::string_view line) {
    if (start != std::string::npos)
      return;
    const std::string_view t = trim(line);
    if (!t.empty() && t.front() == '{') {
      start = static_cast<std::size_t>(t.data() - text.data());
      start_line = number;
    } else if (!t.empty()) {
      before.emplace_back(number, line);
    }
  });
  if (start == std::string::npos) {
    throw InputError(source + ": no fio JSON document found (run fio with --output-format=json)");
  }
  std::vector<std::string> notes;
  if (before.size() <= 5) {
    for (const auto& [number, line] : before)
      notes.push_back(source + ":" + std::to_string(number) +
                      ": cannot parse: " + shown(trim(line), 120));
  } else {
    notes.push_back(source + ":1-" + std::to_string(start_line - 1) + ": " +
                    std::to_string(before.size()) +
                    " lines of text before the JSON document not imported (fio's normal output, "
                    "e.g. '" +
                    shown(before.front().second, 60) + "')");
  }
  // One JSON object, read to its closing brace: what follows it (another format's output) is
  // reported. The shared reader parses it, with the bounds every JSON input gets.
  const std::size_t end = json_object_end(text, start);
  json j;
  FioRepeatedKeys repeated(source);
  try {
    j = parse_json_text(
        text.substr(start, end - start), source,
        [&](json& object, const std::string& object_name, const std::string& key, json later) {
          repeated.merge(object, object_name, key, std::move(later));
        });
  } catch (const InputError& e) {
    throw InputError(shown(e.what(), 250)); // the parser quotes what it read, bytes and all
  }
  if (end < text.size() && !trim(std::string_view(text).substr(end)).empty()) {
    notes.push_back(source + ": text after the JSON document not imported ('" +
                    shown(trim(std::string_view(text).substr(end)), 60) + "')");
  }
  const std::vector<std::string> merged = repeated.notes();
  notes.insert(notes.end(), merged.begin(), merged.end());
  ImportedRun run = import_fio_json(j, source);
  run.warnings.insert(run.warnings.begin(), notes.begin(), notes.end());
  return run;
}

} // namespace cb
