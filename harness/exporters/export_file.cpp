#include "exporters/export_file.hpp"

#include "core/error.hpp"

namespace cb {

ExportFile::ExportFile(const std::string& path, const std::string& flag,
                       const std::vector<std::string>& inputs, OwnFile kind) {
  const std::string named = flag + " " + shown(path, 120);
  check_output_target(path, flag, inputs);
  refuse_foreign_file(path, flag, kind);
  file_.emplace(resolved_output(path, named), named);
}

void ExportFile::commit(std::string_view text) {
  file_->write(text);
  file_->commit();
  file_.reset();
}

} // namespace cb
