#pragma once
// A file a verdict is exported to (--prometheus, --junit), claimed before the command does any
// work and written whole at its end: the path is checked by the rules of every output
// (results/output_target.hpp: never a directory, device, FIFO, socket or one of the inputs; an
// existing file only when clusterbench wrote it) and its temporary opened beside it, so a path
// that cannot be written fails first, with exit 2, and a reader or a crash sees the old file or
// the new one. Destroyed without commit (the command failed), it leaves the old file alone.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "results/atomic_file.hpp"
#include "results/output_target.hpp"

namespace cb {

class ExportFile {
public:
  // InputError "FLAG PATH: ..." for a path that may not or cannot be written.
  ExportFile(const std::string& path, const std::string& flag,
             const std::vector<std::string>& inputs, OwnFile kind);
  // Writes `text` and renames it over the path; once.
  void commit(std::string_view text);

private:
  std::optional<AtomicFile> file_;
};

} // namespace cb
