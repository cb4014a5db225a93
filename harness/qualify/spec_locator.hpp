#pragma once
// Where `--spec NAME` finds harness/specs/NAME.json: $CLUSTERBENCH_SPECS_DIR, else
// share/clusterbench/specs next to an installed executable (<prefix>/bin/../share/...), else the
// source tree's harness/specs (compiled in as CB_SPECS_DIR).
#include <string>
#include <vector>

namespace cb {

std::string specs_directory();
// Spec names (file stems) in a directory, sorted.
std::vector<std::string> available_spec_names(const std::string& directory);
// A path to an existing file, or NAME resolved in specs_directory(). Throws InputError naming
// --spec, listing the available names, when neither exists.
std::string resolve_spec_argument(const std::string& argument);

} // namespace cb
