#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "core/error.hpp"
#include "results/results_io.hpp"

using namespace cb;
namespace fs = std::filesystem;

namespace {

Record sample_record() {
  Record r;
  r.suite = "collectives";
  r.case_name = "all_reduce";
  r.params = {{"bytes", 1048576}, {"dtype", "float"}, {"op", "sum"}, {"in_place", false}};
  r.gpus = 2;
  r.nodes = 1;
  r.ranks_per_node = 2;
  r.samples_s = {1e-4, 1.1e-4, 0.9e-4};
  r.stats = summarize(r.samples_s);
  r.metrics = {{"time_us", 100.0}, {"algbw_gbps", 10.0}, {"busbw_gbps", 10.0}};
  r.check = "pass";
  return r;
}

class TempDir {
public:
  TempDir()
      : path_(fs::temp_directory_path() /
              ("cb-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter_++))) {
    fs::create_directories(path_);
  }
  ~TempDir() { fs::remove_all(path_); }
  std::string file(const std::string& name) const { return (path_ / name).string(); }

private:
  static inline int counter_ = 0;
  fs::path path_;
};

void write(const std::string& path, const std::string& text) {
  std::ofstream(path) << text;
}

std::string load_error(const std::string& path) {
  try {
    load_results(path);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

} // namespace

TEST(ResultsIo, RoundTripKeepsEveryField) {
  TempDir dir;
  ResultsFile f;
  f.run = {{"id", "abc"}, {"backend", "host"}};
  f.records.push_back(sample_record());
  f.records.back().extra = {{"wrong_elements", 0}};
  write_results_atomic(f, dir.file("r.json"));
  ResultsFile back = load_results(dir.file("r.json"));
  ASSERT_EQ(back.records.size(), 1u);
  EXPECT_EQ(record_to_json(back.records[0]), record_to_json(f.records[0]));
  EXPECT_EQ(back.run, f.run);
}

TEST(ResultsIo, IncrementalWriterLeavesAValidFileAfterEveryRecord) {
  TempDir dir;
  const std::string path = dir.file("inc.json");
  IncrementalResultsWriter writer(path, {{"id", "x"}});
  EXPECT_EQ(load_results(path).records.size(), 0u);
  writer.append(sample_record());
  EXPECT_EQ(load_results(path).records.size(), 1u);
  writer.append(sample_record());
  EXPECT_EQ(load_results(path).records.size(), 2u);
  // No temporary files left behind.
  int files = 0;
  for ([[maybe_unused]] auto& e : fs::directory_iterator(fs::path(path).parent_path()))
    ++files;
  EXPECT_EQ(files, 1);
}

TEST(ResultsIo, WriterRejectsMissingDirectory) {
  EXPECT_THROW(IncrementalResultsWriter("/nonexistent-dir-cb/x.json", {}), InputError);
}

TEST(ResultsIo, LoaderRejectsTruncatedFile) {
  TempDir dir;
  ResultsFile f;
  f.records.push_back(sample_record());
  write_results_atomic(f, dir.file("ok.json"));
  std::ifstream in(dir.file("ok.json"));
  std::string text((std::istreambuf_iterator<char>(in)), {});
  write(dir.file("cut.json"), text.substr(0, text.size() / 2));
  const std::string err = load_error(dir.file("cut.json"));
  EXPECT_NE(err.find("cut.json"), std::string::npos) << err;
  EXPECT_NE(err.find("not valid JSON"), std::string::npos) << err;
}

TEST(ResultsIo, LoaderRejectsUnknownSchemaVersion) {
  TempDir dir;
  write(dir.file("v2.json"),
        R"({"schema":"clusterbench.results","schema_version":2,"run":{},"records":[]})");
  const std::string err = load_error(dir.file("v2.json"));
  EXPECT_NE(err.find("schema_version"), std::string::npos) << err;
}

TEST(ResultsIo, LoaderRejectsOtherSchemaAndNonObjects) {
  TempDir dir;
  write(dir.file("other.json"), R"({"schema":"something.else","schema_version":1})");
  EXPECT_NE(load_error(dir.file("other.json")).find("'schema'"), std::string::npos);
  write(dir.file("arr.json"), "[]");
  EXPECT_NE(load_error(dir.file("arr.json")).find("arr.json"), std::string::npos);
  EXPECT_NE(load_error(dir.file("missing.json")).find("cannot open"), std::string::npos);
}

TEST(ResultsIo, LoaderNamesTheMissingRecordField) {
  TempDir dir;
  for (const char* field :
       {"suite", "case", "params", "gpus", "samples_s", "stats", "metrics", "check", "status"}) {
    ResultsFile f;
    f.records.push_back(sample_record());
    nlohmann::json j = results_to_json(f);
    j["records"][0].erase(field);
    write(dir.file("m.json"), j.dump());
    const std::string err = load_error(dir.file("m.json"));
    EXPECT_NE(err.find(std::string("records[0]: missing field '") + field + "'"), std::string::npos)
        << err;
  }
}

TEST(ResultsIo, LoaderRejectsWrongTypesAndValues) {
  TempDir dir;
  ResultsFile f;
  f.records.push_back(sample_record());
  nlohmann::json j = results_to_json(f);
  j["records"][0]["status"] = "great";
  write(dir.file("s.json"), j.dump());
  EXPECT_NE(load_error(dir.file("s.json")).find("'status'"), std::string::npos);
  j = results_to_json(f);
  j["records"][0]["metrics"]["busbw_gbps"] = "fast";
  write(dir.file("m.json"), j.dump());
  EXPECT_NE(load_error(dir.file("m.json")).find("busbw_gbps"), std::string::npos);
  j = results_to_json(f);
  j["records"][0]["gpus"] = 0;
  write(dir.file("g.json"), j.dump());
  EXPECT_NE(load_error(dir.file("g.json")).find("'gpus'"), std::string::npos);
}
