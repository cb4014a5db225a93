// What keeping a run's results file current costs: the first N of the 10,000 synthetic records
// (synthetic_results.hpp) appended one at a time, the file valid on disk after each, by
//   rewrite-each  the whole file written again after every record (what a run did before the
//                 journal; the reference, run here only up to --reference-max records: it is
//                 quadratic), and
//   journal       IncrementalResultsWriter (a journal line per record, the file rewritten at
//                 geometrically growing sizes).
// Prints, per writer and N, the final file's size, the bytes written, their ratio to the file
// (bounded for a linear writer, growing with N for a quadratic one) and the seconds, then the
// reference's ratios to the journal at the largest N both ran.
//   results_writer_cost [--dir DIR] [--reference-max N] [N ...]   (default N: 1000 2000 10000)
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "results/results_io.hpp"
#include "results/results_text.hpp"
#include "synthetic_results.hpp"

namespace {

namespace fs = std::filesystem;

struct Cost {
  std::uint64_t file_bytes = 0;
  std::uint64_t written_bytes = 0;
  double seconds = 0;
};

template <class Write> Cost timed(const std::string& path, Write&& write) {
  const auto start = std::chrono::steady_clock::now();
  Cost c;
  c.written_bytes = write();
  c.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  c.file_bytes = fs::file_size(path);
  fs::remove(path);
  return c;
}

Cost rewrite_each(const cb::ResultsFile& all, std::size_t n, const std::string& path) {
  return timed(path, [&] {
    cb::ResultsFile f;
    f.run = all.run;
    std::uint64_t written = 0;
    for (std::size_t i = 0; i < n; ++i) {
      f.records.push_back(all.records[i]);
      cb::write_results_atomic(f, path);
      written += fs::file_size(path);
    }
    return written;
  });
}

Cost journal(const cb::ResultsFile& all, std::size_t n, const std::string& path) {
  return timed(path, [&] {
    cb::IncrementalResultsWriter writer(path, all.run);
    for (std::size_t i = 0; i < n; ++i)
      writer.append(all.records[i]);
    writer.update_run({{"finished", "now"}}); // the run's last version, journal folded in
    return writer.bytes_written();
  });
}

void print(const char* name, std::size_t n, const Cost& c) {
  std::printf("%-13s %8zu %9.1f %11.1f %13.1f %9.2f %10.3f\n", name, n, c.file_bytes / 1e6,
              c.written_bytes / 1e6, static_cast<double>(c.written_bytes) / c.file_bytes, c.seconds,
              c.seconds * 1e3 / static_cast<double>(n));
  std::fflush(stdout);
}

} // namespace

int main(int argc, char** argv) {
  std::string dir = fs::temp_directory_path().string();
  std::size_t reference_max = 2000;
  std::vector<std::size_t> counts;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--dir" && i + 1 < argc) {
      dir = argv[++i];
    } else if (a == "--reference-max" && i + 1 < argc) {
      reference_max = std::strtoull(argv[++i], nullptr, 10);
    } else if (const auto n = std::strtoull(a.c_str(), nullptr, 10);
               n > 0 && n <= cb::perf::kSyntheticRecords) {
      counts.push_back(n);
    } else {
      std::fprintf(stderr, "usage: results_writer_cost [--dir DIR] [--reference-max N] [N ...] "
                           "(N from 1 to 10000)\n");
      return 2;
    }
  }
  if (counts.empty())
    counts = {1000, 2000, 10000};
  const cb::ResultsFile all = cb::perf::synthetic_results("writer-cost", 7);
  const std::string path =
      (fs::path(dir) / ("writer-cost-" + std::to_string(::getpid()) + ".json")).string();
  std::string line;
  for (const auto& r : all.records)
    cb::append_record_json(line, r, cb::InvalidUtf8::replace);
  std::printf("# a run's results file kept current after each of N records (synthetic, %.1f kB "
              "each on average), in %s\n",
              line.size() / 1e3 / static_cast<double>(all.records.size()), dir.c_str());
  std::printf("%-13s %8s %9s %11s %13s %9s %10s\n", "writer", "records", "file MB", "written MB",
              "written/file", "seconds", "ms/record");
  Cost last_reference, last_journal;
  std::size_t both = 0;
  for (std::size_t n : counts) {
    if (n <= reference_max) {
      last_reference = rewrite_each(all, n, path);
      print("rewrite-each", n, last_reference);
    }
    const Cost c = journal(all, n, path);
    print("journal", n, c);
    if (n <= reference_max) {
      last_journal = c;
      both = n;
    }
  }
  if (both > 0) {
    std::printf("# at %zu records rewrite-each writes x%.0f the bytes and takes x%.1f the time of "
                "the journal\n",
                both,
                static_cast<double>(last_reference.written_bytes) /
                    static_cast<double>(last_journal.written_bytes),
                last_reference.seconds / last_journal.seconds);
  }
  return 0;
}
