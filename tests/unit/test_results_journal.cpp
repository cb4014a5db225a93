// A run's results file with its journal (incremental_writer.hpp, results_journal.hpp): the file
// is whole after every record, every finished record is on disk, a process that dies without
// cleaning up loses none, and the bytes written stay linear in the records.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "core/error.hpp"
#include "results/results_io.hpp"
#include "results/results_journal.hpp"

using namespace cb;
namespace fs = std::filesystem;

namespace {

// A record of about 3 kB, as a 64-rank collective's with its per-rank entries.
Record record(int i) {
  Record r;
  r.suite = "collectives";
  r.case_name = "all_reduce";
  r.params = {{"bytes", 1 << (i % 24)}, {"repeat", i}};
  r.gpus = 64;
  r.nodes = 8;
  r.ranks_per_node = 8;
  r.samples_s = {1e-4, 1.1e-4};
  r.stats = summarize(r.samples_s);
  r.metrics = {{"busbw_gbps", 40.0 + i % 7}};
  for (int rank = 0; rank < 64; ++rank)
    r.per_rank.push_back({{"rank", rank},
                          {"host", "node-" + std::to_string(rank / 8)},
                          {"busbw_gbps", 40.0 + rank % 3}});
  return r;
}

const nlohmann::json kRun = {{"id", "2026-run-1"}, {"started", "2026-01-01T00:00:00Z"}};

struct Dir {
  fs::path path = fs::temp_directory_path() / ("cb-journal-" + std::to_string(::getpid()));
  Dir() { fs::create_directories(path); }
  ~Dir() { fs::remove_all(path); }
  std::string file(const char* name) const { return (path / name).string(); }
};

// The records the file itself holds, read as any JSON tool reads it (no journal).
std::size_t records_in_file(const std::string& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in)["records"].size();
}

std::string read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

// In a child process: a writer of `records` records, then an exit that runs no destructor, as a
// kill -9 after the last append would.
void killed_after(const std::string& path, int records) {
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    auto* writer = new IncrementalResultsWriter(path, kRun); // never destroyed
    for (int i = 0; i < records; ++i)
      writer->append(record(i));
    ::_exit(0);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

} // namespace

TEST(ResultsJournal, KilledRunKeepsEveryRecordInFileAndJournal) {
  Dir dir;
  const std::string path = dir.file("r.json");
  killed_after(path, 300);
  // The file is whole and holds most of them; the journal holds the rest, and loaders read both.
  const std::size_t in_file = records_in_file(path);
  EXPECT_LT(in_file, 300u);
  EXPECT_GE(in_file * 8, 300u * 7);
  EXPECT_TRUE(fs::exists(path + ".journal"));
  const ResultsFile loaded = load_results(path);
  ASSERT_EQ(loaded.records.size(), 300u);
  for (int i = 0; i < 300; ++i)
    EXPECT_EQ(loaded.records[static_cast<std::size_t>(i)].params["repeat"], i);
  // A line the run was writing when it died is not a record.
  std::ofstream(path + ".journal", std::ios::app) << R"({"case":"all_re)";
  EXPECT_EQ(load_results(path).records.size(), 300u);
}

TEST(ResultsJournal, WriterFoldsTheJournalInAndLeavesNoSidecar) {
  Dir dir;
  const std::string path = dir.file("r.json");
  ResultsFile expected;
  expected.run = kRun;
  {
    IncrementalResultsWriter writer(path, kRun);
    for (int i = 0; i < 300; ++i) {
      writer.append(record(i));
      expected.records.push_back(record(i));
      // After every record: a whole file, and every record on disk.
      if (i % 30 == 0) {
        ASSERT_EQ(load_results(path).records.size(), static_cast<std::size_t>(i + 1));
      }
    }
    EXPECT_TRUE(fs::exists(path + ".journal"));
    writer.update_run({{"finished", "later"}});
    EXPECT_FALSE(fs::exists(path + ".journal"));
    EXPECT_EQ(records_in_file(path), 300u);
    writer.append(record(300));
    expected.records.push_back(record(300));
  }
  expected.run["finished"] = "later";
  EXPECT_FALSE(fs::exists(path + ".journal"));
  // The same bytes as the whole file written at once.
  write_results_atomic(expected, dir.file("whole.json"));
  EXPECT_EQ(read(path), read(dir.file("whole.json")));
  EXPECT_EQ(std::distance(fs::directory_iterator(dir.path), fs::directory_iterator()), 2);
}

TEST(ResultsJournal, BytesWrittenStayLinearInTheRecords) {
  Dir dir;
  const std::string path = dir.file("r.json");
  // Rewriting after every record writes about records / 2 times the final file; here the ratio
  // is bounded, and falls as the records grow (the small file's rewrites are a constant).
  double last_ratio = 1e9;
  for (int records : {100, 400}) {
    IncrementalResultsWriter writer(path, kRun);
    for (int i = 0; i < records; ++i)
      writer.append(record(i));
    writer.update_run({{"finished", "now"}});
    const double ratio =
        static_cast<double>(writer.bytes_written()) / static_cast<double>(fs::file_size(path));
    EXPECT_LE(ratio, last_ratio) << records << " records";
    last_ratio = ratio;
  }
  EXPECT_LE(last_ratio, 12.0); // against about 200 for a rewrite per record
}

TEST(ResultsJournal, OnlyThisRunsJournalIsRead) {
  Dir dir;
  const std::string path = dir.file("r.json");
  killed_after(path, 200);
  const std::string journal = read(path + ".journal");
  const std::size_t in_file = records_in_file(path);
  // Another run's journal (a new run replaced the file, then died before its first journal line).
  std::string other = journal;
  other.replace(other.find("2026-run-1"), 10, "2026-run-2");
  std::ofstream(path + ".journal", std::ios::trunc) << other;
  EXPECT_EQ(load_results(path).records.size(), in_file);
  // A journal that began after the file's last record: the file is an older copy.
  ResultsFile older = load_results(path);
  older.records.resize(in_file / 2);
  write_results_atomic(older, path);
  std::ofstream(path + ".journal", std::ios::trunc) << journal;
  EXPECT_EQ(load_results(path).records.size(), in_file / 2);
  // A broken line of this run's journal is named.
  write_results_atomic(ResultsFile{kRun, {}, nlohmann::json::object()}, path);
  std::ofstream(path + ".journal", std::ios::trunc) << journal_header(kRun, 0) << "{\"case\": 5}\n";
  try {
    load_results(path);
    FAIL() << "a broken journal line was read";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("r.json.journal: line 2: missing field 'suite'"),
              std::string::npos)
        << e.what();
  }
}

TEST(ResultsJournal, WriterNeverReplacesAFileItDidNotWrite) {
  Dir dir;
  const std::string path = dir.file("r.json");
  std::ofstream(path + ".journal") << "my notes\n";
  EXPECT_THROW(IncrementalResultsWriter(path, kRun), InputError);
  EXPECT_EQ(read(path + ".journal"), "my notes\n");
  EXPECT_FALSE(fs::exists(path));
  // An earlier run's journal is its own to replace: the new run removes it.
  fs::remove(path + ".journal");
  killed_after(path, 200);
  ASSERT_TRUE(fs::exists(path + ".journal"));
  IncrementalResultsWriter writer(path, {{"id", "next"}});
  EXPECT_FALSE(fs::exists(path + ".journal"));
  EXPECT_TRUE(load_results(path).records.empty());
}
