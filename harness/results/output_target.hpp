#pragma once
// Where any command may write a file (every --out, --html, the files beside a run), and the
// whole-file atomic write.
#include <string>
#include <string_view>
#include <vector>

#include "results/atomic_file.hpp"

namespace cb {

// Throws InputError "FLAG PATH: ..." when `path` exists and is not a regular file (a device,
// FIFO, socket or directory is never replaced) or is one of `inputs` (the same device and inode,
// however it is spelled). A symbolic link is written through: the file it ends at is checked by
// the same rules and replaced, the link is kept; a link to nothing is refused.
void check_output_target(const std::string& path, const std::string& flag,
                         const std::vector<std::string>& inputs = {});

// What a file clusterbench may replace was written as.
enum class OwnFile { results, html_report, prometheus_textfile, junit_xml };

// The first bytes of every Prometheus textfile and JUnit file clusterbench writes
// (exporters/prometheus_text.hpp, exporters/junit_xml.hpp say the same).
inline constexpr std::string_view kPrometheusTextfileStart = "# clusterbench ";
inline constexpr std::string_view kJUnitXmlStart =
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!-- clusterbench ";

// The first bytes of every report page clusterbench writes (report/html_renderer.cpp), up to the
// start of its title, which begins "clusterbench".
inline constexpr std::string_view kReportPageStart =
    "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>";

// Throws InputError "FLAG PATH: ..." when `path` (or the file its links end at) exists, holds
// bytes and is not a clusterbench file of `kind`: a results file is a JSON object whose last
// members are "schema": "clusterbench.results" and "schema_version" (the writer's key order), or
// whose first member is that name (a writer keeping its keys' order); a report page starts as the
// renderer starts every page, its title "clusterbench ..."; a textfile or a JUnit file starts as
// the exporters start theirs. A file that merely mentions either
// (notes, a copy of the schema, a wiki page) is not ours: a file the user named that clusterbench
// did not write is never replaced. Absent and empty files pass.
void refuse_foreign_file(const std::string& path, const std::string& flag, OwnFile kind);

// The file a write to `path` lands on: `path` itself (existing or new), or the end of its chain
// of symbolic links. InputError (naming it `named`) for what may not be replaced.
std::string resolved_output(const std::string& path, const std::string& named);

// Atomic write of a whole file (temp + fsync + rename; no fsync for Durability::process_crash),
// after check_output_target. Throws InputError if the directory is not writable.
void write_text_atomic(const std::string& text, const std::string& path,
                       const std::vector<std::string>& inputs = {},
                       Durability durability = Durability::machine_crash);

} // namespace cb
