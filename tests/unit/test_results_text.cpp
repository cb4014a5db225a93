// The results file written in pieces (results_text.hpp, ResultsFileWriter) is byte for byte what
// dumping the whole tree gives, and the streaming loader reads it with the tree loader's checks.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "core/error.hpp"
#include "results/results_file_writer.hpp"
#include "results/results_io.hpp"
#include "results/results_text.hpp"

using namespace cb;
namespace fs = std::filesystem;

namespace {

Record full_record() {
  Record r;
  r.suite = "collectives";
  r.case_name = "all_reduce";
  r.params = {{"bytes", 1048576}, {"dtype", "float"}, {"in_place", false}};
  r.gpus = 16;
  r.nodes = 2;
  r.ranks_per_node = 8;
  r.tier = "inter";
  r.samples_s = {1e-4, 1.25e-4, 3.0000000000000004e-5};
  r.stats = summarize(r.samples_s);
  r.metrics = {{"busbw_gbps", 41.5}, {"time_us", 100.0}};
  r.per_rank = {{{"host", "n\"0"}, {"rank", 0}, {"median_s", 1e-4}}};
  r.reason = "cv 12 % over \xE2\x80\xA6 the bound";
  r.extra = {{"matrix", {{nullptr, 1.5}, {2.5, nullptr}}}, {"note", "tab\there"}};
  return r;
}

std::string dumped(const Record& r) {
  return record_to_json(r).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::string read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

struct Dir {
  fs::path path = fs::temp_directory_path() / ("cb-text-" + std::to_string(::getpid()));
  Dir() { fs::create_directories(path); }
  ~Dir() { fs::remove_all(path); }
  std::string file(const char* name) const { return (path / name).string(); }
};

} // namespace

TEST(ResultsText, RecordIsTheBytesOfItsTreeDumped) {
  std::vector<Record> records = {full_record(), Record{}};
  Record odd = full_record();
  odd.stats.cv = std::nan(""); // dumped as null, as the tree does
  odd.samples_s.clear();
  odd.extra = nlohmann::json::object();
  odd.reason.clear();
  odd.case_name = "bad \xFF byte"; // replaced by U+FFFD, as the tree's dump does
  records.push_back(odd);
  for (const auto& r : records) {
    std::string out = "prefix";
    append_record_json(out, r, InvalidUtf8::replace);
    EXPECT_EQ(out, "prefix" + dumped(r));
  }
}

TEST(ResultsText, RefusedByteLeavesTheOutputAsItWas) {
  Record r = full_record();
  r.per_rank[0]["host"] = "n\xFF";
  std::string out = "kept";
  EXPECT_THROW(append_record_json(out, r, InvalidUtf8::refuse), nlohmann::json::type_error);
  EXPECT_EQ(out, "kept");
}

TEST(ResultsText, FileWrittenInPiecesIsTheWholeTreeLaidOut) {
  Dir dir;
  ResultsFile f;
  f.run = {{"id", "x"}, {"hosts", {{{"host", "a"}}}}};
  f.fits = {{"curves", nlohmann::json::array({{{"case", "all_reduce"}}})}};
  for (int i = 0; i < 3; ++i)
    f.records.push_back(full_record());
  write_results_atomic(f, dir.file("r.json"));
  // The layout of the tree: keys in order, the records one per line, the rest indented.
  const nlohmann::json j = results_to_json(f);
  std::string expected = "{\n \"fits\": " + j["fits"].dump(1) + ",\n \"records\": [";
  for (std::size_t i = 0; i < f.records.size(); ++i)
    expected += (i == 0 ? "\n  " : ",\n  ") + dumped(f.records[i]);
  expected += "\n ],\n \"run\": " + j["run"].dump(1) +
              ",\n \"schema\": \"clusterbench.results\",\n \"schema_version\": 1\n}\n";
  EXPECT_EQ(read(dir.file("r.json")), expected);
  f.records.clear();
  write_results_atomic(f, dir.file("empty.json"));
  EXPECT_NE(read(dir.file("empty.json")).find("\"records\": [],\n"), std::string::npos);
  EXPECT_TRUE(load_results(dir.file("empty.json")).records.empty());
}

TEST(ResultsText, UncommittedWriterLeavesNothing) {
  Dir dir;
  {
    ResultsFileWriter writer(dir.file("r.json"), nlohmann::json::object(), InvalidUtf8::refuse);
    writer.add(full_record());
    Record bad = full_record();
    bad.suite = "\xC3";
    EXPECT_THROW(writer.add(bad), nlohmann::json::type_error);
    EXPECT_EQ(writer.records(), 1u);
  }
  EXPECT_TRUE(fs::is_empty(dir.path));
}

TEST(ResultsReader, StreamedRecordsMatchTheTreeLoader) {
  Dir dir;
  ResultsFile f;
  f.run = {{"id", "x"}};
  f.records = {full_record(), full_record()};
  f.records[1].per_rank = nlohmann::json::array();
  write_results_atomic(f, dir.file("r.json"));
  const ResultsFile streamed = load_results(dir.file("r.json"));
  const ResultsFile tree =
      results_from_json(nlohmann::json::parse(read(dir.file("r.json"))), dir.file("r.json"));
  EXPECT_EQ(results_to_json(streamed), results_to_json(tree));
  EXPECT_EQ(results_to_json(streamed), results_to_json(f));
}

namespace {

std::string load_error(const std::string& path) {
  try {
    load_results(path);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

} // namespace

TEST(ResultsReader, ErrorsComeInTheTreeLoadersOrder) {
  Dir dir;
  const std::string record = dumped(full_record());
  auto write = [&](const char* name, const std::string& text) {
    std::ofstream(dir.file(name)) << text;
    return dir.file(name);
  };
  // A bad record and a bad schema: the top level is checked first.
  EXPECT_NE(
      load_error(write("a.json", R"({"records":[1],"run":{},"schema":"other","schema_version":1})"))
          .find("field 'schema' is 'other'"),
      std::string::npos);
  // A bad record after a good one is named by its index; one that is not an object says so.
  EXPECT_NE(load_error(write("b.json", "{\"records\":[" + record +
                                           ",7],\"run\":{},\"schema\":\"clusterbench.results\","
                                           "\"schema_version\":1}"))
                .find("records[1]: must be an object"),
            std::string::npos);
  // Bad syntax after a bad record: the syntax is reported, as a tree parse would.
  EXPECT_NE(load_error(write("c.json", "{\"records\":[7], \"run\": {]")).find("not valid JSON"),
            std::string::npos);
  // A second "records" key is refused, whichever of them is the bad one: a tree would keep the
  // last, silently.
  const std::string two = "{\"records\":[7],\"records\":[" + record +
                          "],\"run\":{},\"schema\":\"clusterbench.results\",\"schema_version\":1}";
  EXPECT_NE(load_error(write("d.json", two)).find("key 'records' appears twice"),
            std::string::npos);
  EXPECT_NE(load_error(write("e.json", "{\"records\":[" + record +
                                           "],\"records\":{},\"run\":{},\"schema\":"
                                           "\"clusterbench.results\",\"schema_version\":1}"))
                .find("key 'records' appears twice"),
            std::string::npos);
  // A "records" key deeper down is data, not the records.
  const std::string nested = "{\"records\":[],\"run\":{\"records\":[1,{\"records\":[2]}]},"
                             "\"schema\":\"clusterbench.results\",\"schema_version\":1}";
  EXPECT_EQ(load_results(write("f.json", nested)).run["records"][1]["records"][0], 2);
}
