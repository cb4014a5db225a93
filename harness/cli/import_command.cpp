// clusterbench import: other tools' output (nccl-tests, fio, OSU) as a clusterbench results file.
#include <exception>
#include <iostream>
#include <optional>

#include "cli/command.hpp"
#include "core/args.hpp"
#include "core/error.hpp"
#include "core/units.hpp"
#include "imports/importer.hpp"
#include "results/json_file.hpp"
#include "results/results_file_writer.hpp"
#include "results/results_io.hpp"

namespace {

int positive_flag(const cb::ArgParser& parser, const std::string& name) {
  const long long value = cb::parse_integer(*parser.get(name), "--" + name);
  if (value < 1 || value > 1000000) {
    throw cb::InputError("--" + name + ": must be a positive count, got " + std::to_string(value));
  }
  return static_cast<int>(value);
}

int import_main(const std::vector<std::string>& args) {
  cb::ArgParser parser("import",
                       "clusterbench import nccl-tests|fio|osu FILE [FILE...] --out RESULTS.json "
                       "[--np N] [--nodes N]");
  parser.positional("TOOL", "nccl-tests, fio or osu")
      .positional("FILE", "the tool's output; several files are merged into one run")
      .allow_extra_positionals()
      .option("out", "RESULTS.json", "where to write the results (atomically)")
      .option("np", "N", "osu: ranks of the run (required for collectives; OSU does not print it)")
      .option("nodes", "N", "osu: nodes the ranks ran on (default 1)")
      .epilog("nccl-tests: the text table of any *_perf program, old ('error' column) or new\n"
              "('#wrong'), several runs concatenated, behind srun/Open MPI/timestamp prefixes, or\n"
              "its -J JSON file. fio: --output-format=json (2.x or 3.x, text before it allowed).\n"
              "osu: osu_allreduce, osu_allgather, osu_bcast, osu_alltoall, osu_reduce,\n"
              "osu_latency, osu_bw, osu_bibw. Each figure becomes a record with one sample; lines\n"
              "that cannot be read are reported on stderr as FILE:LINE: cannot parse: ... (the\n"
              "first 20, then a count); a file with no table is an error (exit 2). Imported runs\n"
              "compare and check against measured runs of the same cases.");
  if (!parser.parse(args)) {
    std::cout << parser.help();
    return 0;
  }
  const cb::ImportTool tool = cb::import_tool_from_name(parser.positional_value("TOOL"));
  const auto out = parser.get("out");
  if (!out || out->empty())
    throw cb::InputError("--out: required (the results file to write)");
  cb::ImportOptions options;
  for (const char* osu_only : {"np", "nodes"}) {
    if (parser.has(osu_only) && tool != cb::ImportTool::osu) {
      throw cb::InputError(std::string("--") + osu_only + ": applies to osu only");
    }
  }
  if (parser.has("np"))
    options.osu.np = positive_flag(parser, "np");
  if (parser.has("nodes"))
    options.osu.nodes = positive_flag(parser, "nodes");
  if (parser.has("np") && parser.has("nodes") && options.osu.nodes > options.osu.np) {
    throw cb::InputError("--nodes: " + std::to_string(options.osu.nodes) + " nodes for " +
                         std::to_string(options.osu.np) +
                         " ranks (--np); every node runs one at least");
  }

  const std::vector<std::string> files(parser.positionals().begin() + 1,
                                       parser.positionals().end());
  // Before reading anything: --out may not name a device, a FIFO or one of the logs read.
  cb::check_output_target(*out, "--out", files);
  cb::refuse_foreign_file(*out, "--out", cb::OwnFile::results);
  const std::string sources = files.size() == 1 ? files.front() : cb::join(files, ", ");
  // Each record is written out as the importer finishes it, so memory is that of the logs' text
  // and one table, not of every record. The problems found on the way are raised in the order a
  // whole-file write met them: the logs' own first, then text that is not UTF-8 (bad input, named
  // by nlohmann's strict dump, rather than a results file with the bytes replaced), then --out.
  std::optional<cb::ResultsFileWriter> writer;
  std::exception_ptr write_problem;
  try {
    writer.emplace(*out, nlohmann::json::object(), cb::InvalidUtf8::refuse, files);
  } catch (const cb::Error&) {
    write_problem = std::current_exception();
  }
  std::optional<cb::InputError> not_utf8;
  std::size_t records = 0;
  std::string scratch; // where records are checked when there is no file to write them to
  std::optional<cb::InputError> out_of_bounds;
  auto write = [&](cb::Record&& r) {
    ++records;
    if (not_utf8 || out_of_bounds)
      return;
    // Held to the bounds every loader holds a results file to, so that an import never writes a
    // file that report, qualify or check then refuse (a time of 1e308 s in a log is bad input).
    try {
      cb::record_from_json(cb::record_to_json(r), sources + ": " + r.suite + "/" + r.case_name +
                                                      " " + cb::shown(r.params.dump()));
    } catch (const cb::InputError& e) {
      out_of_bounds.emplace(e.what());
      return;
    }
    try {
      if (writer) {
        writer->add(r);
      } else {
        scratch.clear();
        cb::append_record_json(scratch, r, cb::InvalidUtf8::refuse);
      }
    } catch (const nlohmann::json::exception& e) {
      not_utf8.emplace(sources + ": " + cb::json_error_reason(e));
    } catch (const cb::Error&) {
      write_problem = std::current_exception();
      writer.reset();
    }
  };
  // A nlohmann error from a JSON log (fio, nccl-tests -J) is that log's bad input, not ours.
  const cb::ImportOutcome outcome =
      cb::reading_json(sources, [&] { return cb::import_files(tool, files, options, write); });
  if (not_utf8)
    throw *not_utf8;
  if (out_of_bounds)
    throw *out_of_bounds;
  cb::reading_json(sources, [&] { return outcome.results.run.dump().size(); });
  for (const auto& warning : outcome.warnings)
    std::cerr << cb::one_line(warning) << "\n";
  if (write_problem)
    std::rethrow_exception(write_problem);
  writer->commit(outcome.results.run);
  std::cout << "imported " << records << " records from " << files.size() << " file"
            << (files.size() == 1 ? "" : "s") << " (" << cb::import_tool_name(tool) << ") into "
            << *out;
  // Lines not read, and notes on what was read another tool's way (fio's repeated keys).
  if (!outcome.warnings.empty()) {
    std::cout << "; " << outcome.warnings.size() << " warning"
              << (outcome.warnings.size() == 1 ? "" : "s") << " (see stderr)";
  }
  std::cout << "\n";
  return 0;
}

} // namespace

CB_REGISTER_COMMAND("import", "turn nccl-tests, fio or OSU output into a results file",
                    import_main);
