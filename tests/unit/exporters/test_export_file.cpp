// The file an export claims: refused where every output is refused, written whole or not at all.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "../cli_runner.hpp"
#include "core/error.hpp"
#include "exporters/export_file.hpp"
#include "exporters/junit_xml.hpp"
#include "exporters/prometheus_text.hpp"

namespace cb {
namespace {

namespace fs = std::filesystem;

class ExportFileTest : public ::testing::Test {
protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("cb-export-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  static void write(const std::string& path, const std::string& text) {
    std::ofstream(path) << text;
  }
  fs::path dir_;
};

TEST_F(ExportFileTest, WritesANewFileAndReplacesItsOwn) {
  const std::string out = path("verdict.prom");
  ExportFile(out, "--prometheus", {}, OwnFile::prometheus_textfile).commit("# clusterbench a\n");
  EXPECT_EQ(testing::read_file(out), "# clusterbench a\n");
  ExportFile(out, "--prometheus", {}, OwnFile::prometheus_textfile).commit("# clusterbench b\n");
  EXPECT_EQ(testing::read_file(out), "# clusterbench b\n");
  const std::string xml = path("verdict.xml");
  ExportFile(xml, "--junit", {}, OwnFile::junit_xml).commit(junit_xml("n", {}, "h"));
  ExportFile(xml, "--junit", {}, OwnFile::junit_xml).commit(junit_xml("n", {}, "h2"));
  EXPECT_NE(testing::read_file(xml).find("h2"), std::string::npos);
}

// node_exporter's textfile collector reads *.prom only: another name would never be scraped.
TEST_F(ExportFileTest, RefusesATextfileNotNamedProm) {
  for (const char* name : {"verdict.txt", "verdict.prom.tmp", "prom"}) {
    const std::string out = path(name);
    try {
      ExportFile(out, "--prometheus", {}, OwnFile::prometheus_textfile);
      ADD_FAILURE() << name << " was accepted";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("must end in .prom"), std::string::npos) << e.what();
    }
    EXPECT_FALSE(std::filesystem::exists(out)) << name;
  }
  // JUnit files take any name.
  ExportFile(path("verdict.txt"), "--junit", {}, OwnFile::junit_xml).commit(junit_xml("n", {}, "h"));
}

TEST_F(ExportFileTest, RefusesAFileItDidNotWrite) {
  const std::string notes = path("notes.prom");
  write(notes, "node_cpu_seconds 1\n");
  try {
    ExportFile(notes, "--prometheus", {}, OwnFile::prometheus_textfile);
    FAIL() << "replaced a file clusterbench did not write";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("--prometheus"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("not a clusterbench Prometheus textfile"),
              std::string::npos)
        << e.what();
  }
  EXPECT_EQ(testing::read_file(notes), "node_cpu_seconds 1\n");
  // A textfile of ours is not a JUnit file of ours.
  const std::string prom = path("ours.prom");
  write(prom, "# clusterbench qualify\n");
  EXPECT_THROW(ExportFile(prom, "--junit", {}, OwnFile::junit_xml), InputError);
}

TEST_F(ExportFileTest, RefusesDirectoriesDevicesInputsAndMissingFolders) {
  EXPECT_THROW(ExportFile(dir_.string(), "--junit", {}, OwnFile::junit_xml), InputError);
  EXPECT_THROW(ExportFile("/dev/null", "--junit", {}, OwnFile::junit_xml), InputError);
  const std::string input = path("run.json");
  write(input, "{}");
  EXPECT_THROW(ExportFile(input, "--junit", {input}, OwnFile::junit_xml), InputError);
  EXPECT_THROW(ExportFile(path("no/such/dir/x.xml"), "--junit", {}, OwnFile::junit_xml),
               InputError);
  EXPECT_THROW(ExportFile("", "--junit", {}, OwnFile::junit_xml), InputError);
}

TEST_F(ExportFileTest, NothingIsWrittenWithoutCommit) {
  const std::string out = path("verdict.xml");
  write(out, std::string(kJUnitFileStart) + "old -->\n");
  { ExportFile claimed(out, "--junit", {}, OwnFile::junit_xml); }
  EXPECT_EQ(testing::read_file(out), std::string(kJUnitFileStart) + "old -->\n");
  std::size_t entries = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir_))
    ++entries;
  EXPECT_EQ(entries, 1u); // no temporary left beside it
}

} // namespace
} // namespace cb
