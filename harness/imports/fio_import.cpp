#include "imports/fio_import.hpp"
#include "results/json_file.hpp"

#include <algorithm>
#include <cctype>
#include <ctime>
#include <map>

#include "core/error.hpp"
#include "core/units.hpp"
#include "imports/text_lines.hpp"

namespace cb {
namespace {

using nlohmann::json;

constexpr const char* kTool = "fio";

// An option as fio printed it (always a string), job options over global ones.
std::string option(const json& job, const json& global, const char* key,
                   const std::string& fallback) {
  for (const json* scope : {&job, &global}) {
    auto it = scope->find(key);
    if (it != scope->end() && it->is_string())
      return it->get<std::string>();
  }
  return fallback;
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
    if (doc_.contains("fio version") && doc_["fio version"].is_string()) {
      out_.versions["fio"] = doc_["fio version"];
    }
    for (const auto& w : workloads())
      add_record(w);
    if (out_.records.empty()) {
      throw InputError(source_ + ": no read job in the fio output (import reads rw=read and "
                                 "rw=randread jobs)");
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
           doc_["jobs"][i].value("jobname", std::string("?")) + ")";
  }

  void skip(std::size_t i, const std::string& why) {
    out_.warnings.push_back(where(i) + ": not imported: " + why);
  }

  void add_record(const Workload& w) {
    const json& first = doc_["jobs"][w.jobs[0]];
    if (!first.is_object() || !first.contains("read") || !first["read"].is_object()) {
      return skip(w.jobs[0], "no 'read' statistics");
    }
    const json options = first.value("job options", json::object());
    const std::string rw =
        option(options, global_, "rw", option(options, global_, "readwrite", "read"));
    std::string case_name;
    if (rw == "read") {
      case_name = "seq_read";
    } else if (rw == "randread") {
      case_name = "rand_read";
    } else {
      return skip(w.jobs[0], "rw=" + rw + " is not a read workload");
    }
    std::string bs_text =
        option(options, global_, "bs", option(options, global_, "blocksize", "4k"));
    bs_text = bs_text.substr(0, bs_text.find(',')); // "read,write" sizes: the read one
    std::uint64_t block_bytes = 0;
    try {
      block_bytes = parse_size(bs_text, "bs");
    } catch (const InputError&) {
      return skip(w.jobs[0], "cannot parse bs='" + bs_text + "'");
    }
    const auto queue_depth = parse_long(option(options, global_, "iodepth", "1"));
    const auto numjobs = parse_long(option(options, global_, "numjobs", "1"));
    if (!queue_depth || !numjobs)
      return skip(w.jobs[0], "cannot parse iodepth or numjobs");

    double bytes = 0, ios = 0, iops = 0, latency_weighted = 0, runtime_ms = 0;
    int errors = 0;
    json per_rank = json::array();
    for (std::size_t k = 0; k < w.jobs.size(); ++k) {
      const json& job = doc_["jobs"][w.jobs[k]];
      const json read = job.value("read", json::object());
      const double job_bytes = number_or(read, "io_bytes", 0);
      const double job_runtime = number_or(read, "runtime", 0);
      const double job_ios = number_or(read, "total_ios", 0);
      bytes += job_bytes;
      ios += job_ios;
      iops += number_or(read, "iops", 0);
      runtime_ms = std::max(runtime_ms, job_runtime);
      latency_weighted += number_or(read.value("lat_ns", json::object()), "mean", 0) * job_ios;
      errors += job.value("error", 0) != 0 ? 1 : 0;
      if (w.jobs.size() > 1) {
        json entry = {{"rank", k}, {"job", job.value("jobname", "")}};
        if (job.contains("hostname") && job["hostname"].is_string())
          entry["host"] = job["hostname"];
        entry["gbps"] = job_runtime > 0 ? job_bytes / (job_runtime / 1e3) / 1e9 : 0.0;
        per_rank.push_back(std::move(entry));
      }
    }
    if (!(runtime_ms > 0) || !(bytes > 0))
      return skip(w.jobs[0], "no bytes read");
    const double seconds = runtime_ms / 1e3;
    json metrics = {{"gbps", bytes / seconds / 1e9}, {"iops", iops}};
    if (ios > 0 && latency_weighted > 0)
      metrics["latency_us"] = latency_weighted / ios / 1e3;
    const int jobs =
        w.jobs.size() > 1 ? static_cast<int>(w.jobs.size()) : static_cast<int>(*numjobs);
    // "io" is the storage suite's name for the same choice, so imported and measured records match.
    const bool direct = truthy(option(options, global_, "direct", "0"));
    const bool verifies = option(options, global_, "verify", "0") != "0";
    Record r = imported_record("storage", case_name,
                               {{"block_bytes", block_bytes},
                                {"queue_depth", *queue_depth},
                                {"direct", direct},
                                {"io", direct ? "direct" : "buffered"}},
                               jobs, 1, seconds, std::move(metrics),
                               verifies ? (errors == 0 ? "pass" : "fail") : "skipped");
    if (errors > 0) {
      r.status = "failed";
      r.reason = std::to_string(errors) + " fio job(s) reported an error";
    }
    r.per_rank = std::move(per_rank);
    r.extra = {{"tool", kTool},
               {"source", where(w.jobs[0])},
               {"jobname", first.value("jobname", "")},
               {"rw", rw},
               {"ioengine", option(options, global_, "ioengine", "psync")},
               {"io_bytes", bytes},
               {"runtime_ms", runtime_ms}};
    const std::string target =
        option(options, global_, "filename", option(options, global_, "directory", ""));
    if (!target.empty())
      r.extra["target"] = target;
    out_.records.push_back(std::move(r));
  }

  const json& doc_;
  std::string source_;
  json global_;
  ImportedRun out_;
};

} // namespace

ImportedRun import_fio_json(const json& j, const std::string& source) {
  try {
    return FioImporter(j, source).run();
  } catch (const json::exception& e) {
    // A field of an unexpected type: not the layout fio writes.
    throw InputError(source + ": unexpected fio JSON layout (" + e.what() + ")");
  }
}

ImportedRun import_fio_file(const std::string& path) {
  const std::string text = read_text_file(path);
  const auto lines = split_lines(text);
  // fio prints notes ("queue depth will be capped at 1") on stdout before the JSON document.
  std::size_t start = 0;
  while (start < lines.size() && trim(lines[start]) != "{")
    ++start;
  if (start == lines.size()) {
    throw InputError(path + ": no fio JSON document found (run fio with --output-format=json)");
  }
  std::vector<std::string> notes;
  for (std::size_t i = 0; i < start; ++i) {
    if (!trim(lines[i]).empty())
      notes.push_back(path + ":" + std::to_string(i + 1) + ": cannot parse: " + lines[i]);
  }
  std::string body;
  for (std::size_t i = start; i < lines.size(); ++i)
    body += lines[i] + "\n";
  // Through the one JSON reader: its depth bound and its one-line errors.
  const json j = parse_json_text(body, path + ": from line " + std::to_string(start + 1));
  ImportedRun run = import_fio_json(j, path);
  run.warnings.insert(run.warnings.begin(), notes.begin(), notes.end());
  return run;
}

} // namespace cb
