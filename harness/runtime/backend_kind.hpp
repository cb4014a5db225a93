#pragma once
// The backend a run uses, as cases ask it: resolved once from --backend (a named backend at
// parsing, "auto" by the launcher through the backend registry) and never rewritten, so that
// no case tells backends apart by their names.
#include <optional>
#include <string>

namespace cb {

enum class BackendKind { host, cuda };

inline const char* backend_kind_name(BackendKind kind) {
  return kind == BackendKind::cuda ? "cuda" : "host";
}

// The kind a backend's registered name stands for; nullopt for "auto" and for names no backend
// has (the registry refuses those with the flag's name).
inline std::optional<BackendKind> backend_kind_named(const std::string& name) {
  if (name == "host")
    return BackendKind::host;
  if (name == "cuda")
    return BackendKind::cuda;
  return std::nullopt;
}

} // namespace cb
