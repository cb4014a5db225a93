#include "exporters/export_file.hpp"

#include "core/error.hpp"

namespace cb {

ExportFile::ExportFile(const std::string& path, const std::string& flag,
                       const std::vector<std::string>& inputs, OwnFile kind) {
  const std::string named = flag + " " + shown(path, 120);
  check_output_target(path, flag, inputs);
  refuse_foreign_file(path, flag, kind);
  // node_exporter's textfile collector reads *.prom only: any other name would be written and
  // never scraped, and the alerts on it would never fire.
  if (kind == OwnFile::prometheus_textfile &&
      (path.size() < 5 || path.compare(path.size() - 5, 5, ".prom") != 0)) {
    throw InputError(named + ": a textfile's name must end in .prom (node_exporter's textfile "
                             "collector reads no other)");
  }
  file_.emplace(resolved_output(path, named), named);
}

void ExportFile::commit(std::string_view text) {
  file_->write(text);
  file_->commit();
  file_.reset();
}

} // namespace cb
