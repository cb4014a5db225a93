#include <gtest/gtest.h>
#include <sys/stat.h>

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
  writer.set_run_field("finished", "2026-01-01T00:00:01Z");
  EXPECT_EQ(load_results(path).run["finished"], "2026-01-01T00:00:01Z");
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

// The shared set of broken files (tests/fixtures/bad_results/, also checked against the JSON
// Schema by tests/python/test_results_schema.py): each is refused naming its field, good.json is
// read.
TEST(ResultsIo, LoaderRefusesEveryFileOfTheSharedBadSet) {
  const fs::path dir = fs::path(CB_SOURCE_DIR) / "tests" / "fixtures" / "bad_results";
  EXPECT_NO_THROW(load_results((dir / "good.json").string()));
  int seen = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (entry.path().extension() != ".json" || name == "good.json")
      continue;
    ++seen;
    const std::string field = name.substr(0, name.find("--"));
    const std::string error = load_error(entry.path().string());
    ASSERT_FALSE(error.empty()) << name << " was read";
    // "stats.median_s" is named so; a record's field "gpus" as 'gpus', a sample as samples_s[i].
    const std::string leaf = field.substr(field.find('.') + 1);
    EXPECT_NE(error.find(leaf), std::string::npos) << name << ": " << error;
    EXPECT_EQ(error.find('\n'), std::string::npos) << error;
  }
  EXPECT_GE(seen, 20);
}

TEST(ResultsIo, LoaderRefusesOverflowDepthAndWrappingIntegers) {
  TempDir dir;
  ResultsFile f;
  f.records.push_back(sample_record());
  std::string text = results_to_json(f).dump();
  write(dir.file("overflow.json"), std::string(text).replace(text.find("0.0001"), 6, "1e400"));
  EXPECT_NE(load_error(dir.file("overflow.json")).find("number overflow"), std::string::npos);
  write(dir.file("deep.json"), std::string(1'000'000, '['));
  EXPECT_NE(load_error(dir.file("deep.json")).find("nested deeper than 64"), std::string::npos);
  nlohmann::json j = results_to_json(f);
  j["schema_version"] = 4294967297ULL; // 1 once wrapped to 32 bits
  write(dir.file("wrap.json"), j.dump());
  EXPECT_NE(load_error(dir.file("wrap.json")).find("4294967297"), std::string::npos);
  j = results_to_json(f);
  j["records"][0]["samples_s"][0] = 0.0;
  write(dir.file("zero.json"), j.dump());
  EXPECT_NE(load_error(dir.file("zero.json")).find("records[0]: field 'samples_s[0]' is 0"),
            std::string::npos)
      << load_error(dir.file("zero.json"));
}

TEST(ResultsIo, WriterRefusesDevicesFifosDirectoriesAndInputs) {
  TempDir dir;
  ResultsFile f;
  const auto refused = [&](const std::string& path, const std::vector<std::string>& inputs,
                           const std::string& why) {
    try {
      write_results_atomic(f, path, inputs);
    } catch (const InputError& e) {
      return std::string(e.what()).find(why) != std::string::npos;
    }
    return false;
  };
  EXPECT_TRUE(refused("/dev/null", {}, "is a character device"));
  struct stat info {};
  ASSERT_EQ(::stat("/dev/null", &info), 0);
  EXPECT_TRUE(S_ISCHR(info.st_mode)) << "/dev/null was replaced";
  ASSERT_EQ(::mkfifo(dir.file("fifo").c_str(), 0600), 0);
  EXPECT_TRUE(refused(dir.file("fifo"), {}, "is a FIFO"));
  EXPECT_TRUE(fs::is_fifo(dir.file("fifo")));
  fs::create_directory(dir.file("d"));
  EXPECT_TRUE(refused(dir.file("d"), {}, "is a directory"));
  write(dir.file("in.json"), "input");
  EXPECT_TRUE(refused(dir.file("in.json"), {dir.file("in.json")}, "is the input"));
  fs::create_symlink(dir.file("in.json"), dir.file("alias.json"));
  EXPECT_TRUE(refused(dir.file("alias.json"), {dir.file("in.json")}, "is the input"));
  std::ifstream kept(dir.file("in.json"));
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(kept), {}), "input");
  // A link to a regular file that is not an input is written through; the link stays.
  write_results_atomic(f, dir.file("alias.json"));
  EXPECT_TRUE(fs::is_symlink(dir.file("alias.json")));
  EXPECT_NO_THROW(load_results(dir.file("in.json")));
}
