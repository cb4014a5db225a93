#include "imports/nccl_tests_import.hpp"

#include <algorithm>
#include <cctype>
#include <map>

#include "core/error.hpp"
#include "imports/text_lines.hpp"
#include "results/json_file.hpp"

namespace cb {

std::string nccl_case_from_program(std::string_view program) {
  const std::size_t slash = program.find_last_of('/');
  if (slash != std::string_view::npos)
    program.remove_prefix(slash + 1);
  // "<collective>_perf" or "<collective>_perf_mpi", nothing else: "all_reduce_perf.log" is a file.
  for (std::string_view suffix : {"_perf", "_perf_mpi"}) {
    if (program.size() <= suffix.size() ||
        program.substr(program.size() - suffix.size()) != suffix) {
      continue;
    }
    const std::string_view name = program.substr(0, program.size() - suffix.size());
    const bool word = name.size() <= 32 && std::all_of(name.begin(), name.end(), [](char c) {
                        return std::islower(static_cast<unsigned char>(c)) || c == '_';
                      });
    if (word && name.front() != '_')
      return std::string(name);
  }
  return "";
}

std::string nccl_case_from_file_name(const std::string& path) {
  // Spellings differ ("reduce_scatter", "reducescatter", "reduce-scatter", "AllGather"): compare
  // letters only, longest names first, and take a name only when it is the only one there
  // ("nccl_reducescatter.log" is reduce_scatter, not scatter; "allreduce_vs_allgather" is none).
  std::string letters;
  for (char c : base_name(path)) {
    if (std::isalpha(static_cast<unsigned char>(c)))
      letters += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  static const std::pair<const char*, const char*> cases[] = {{"reducescatter", "reduce_scatter"},
                                                              {"allreduce", "all_reduce"},
                                                              {"allgather", "all_gather"},
                                                              {"alltoall", "alltoall"},
                                                              {"broadcast", "broadcast"},
                                                              {"sendrecv", "sendrecv"},
                                                              {"hypercube", "hypercube"},
                                                              {"scatter", "scatter"},
                                                              {"gather", "gather"},
                                                              {"reduce", "reduce"},
                                                              {"bcast", "broadcast"}};
  std::string found;
  for (const auto& [spelling, name] : cases) {
    std::size_t at = letters.find(spelling);
    if (at == std::string::npos)
      continue;
    if (!found.empty() && found != name)
      return ""; // two collectives named: the file name does not say which
    found = name;
    for (; at != std::string::npos; at = letters.find(spelling, at))
      letters.replace(at, std::string_view(spelling).size(), "|");
  }
  return found;
}

std::string nccl_dtype(std::string_view type) {
  static const std::map<std::string, std::string, std::less<>> names = {
      {"half", "fp16"},   {"bfloat16", "bf16"}, {"f8e4m3", "fp8"}, {"f8e5m2", "fp8e5m2"},
      {"float", "float"}, {"double", "double"}, {"int32", "int32"}};
  auto it = names.find(type);
  return it == names.end() ? std::string(type) : it->second;
}

std::string nccl_version_from_code(long long code) {
  if (code >= 10000) {
    return std::to_string(code / 10000) + "." + std::to_string(code / 100 % 100) + "." +
           std::to_string(code % 100);
  }
  // Before 2.9 the code was major*1000 + minor*100 + patch.
  return std::to_string(code / 1000) + "." + std::to_string(code / 100 % 10) + "." +
         std::to_string(code % 100);
}

ImportedRun import_nccl_tests_file(const std::string& path, const RecordSink& sink) {
  const std::string text = read_text_file(path);
  const std::string_view body = trim(text);
  if (!body.empty() && body.front() == '{') {
    nlohmann::json j;
    try {
      j = parse_json_text(std::string(body), path);
    } catch (const InputError& e) {
      throw InputError(shown(e.what(), 250)); // the parser quotes what it read, bytes and all
    }
    return import_nccl_tests_json(j, shown(path, 100));
  }
  return import_nccl_tests_text(text, path, sink);
}

} // namespace cb
