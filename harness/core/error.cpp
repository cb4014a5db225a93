#include "core/error.hpp"

#include <unistd.h>

#include <array>
#include <cstdlib>

namespace cb {
namespace {
// Per thread, not per process: in a single-process run every thread is a rank of its own.
thread_local int thread_rank = -1;
} // namespace

std::size_t utf8_sequence_length(std::string_view s, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = byte(i);
  std::size_t n = 0;
  unsigned int min = 0;
  unsigned int code = 0;
  if (c < 0x80)
    return 1;
  if ((c & 0xE0) == 0xC0) {
    n = 2, min = 0x80, code = c & 0x1F;
  } else if ((c & 0xF0) == 0xE0) {
    n = 3, min = 0x800, code = c & 0x0F;
  } else if ((c & 0xF8) == 0xF0) {
    n = 4, min = 0x10000, code = c & 0x07;
  } else {
    return 0;
  }
  if (i + n > s.size())
    return 0;
  for (std::size_t k = 1; k < n; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80)
      return 0;
    code = (code << 6) | (byte(i + k) & 0x3F);
  }
  // Overlong forms, UTF-16 surrogates and code points past U+10FFFF are not UTF-8.
  if (code < min || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF))
    return 0;
  return n;
}

namespace {

// Appends s[i..] escaped until `limit` characters or `max_bytes` bytes are written; returns
// whether all of it fitted.
bool append_escaped(std::string& out, std::string_view s, std::size_t max_chars,
                    std::size_t max_bytes, bool escape_backslash) {
  static const char* hex = "0123456789abcdef";
  std::size_t chars = 0;
  for (std::size_t i = 0; i < s.size();) {
    std::string piece;
    const unsigned char c = static_cast<unsigned char>(s[i]);
    const std::size_t n = utf8_sequence_length(s, i);
    if (n == 0 || c < 0x20 || c == 0x7F) {
      if (c == '\n')
        piece = "\\n";
      else if (c == '\r')
        piece = "\\r";
      else if (c == '\t')
        piece = "\\t";
      else
        piece = {'\\', 'x', hex[c >> 4], hex[c & 0xF]};
      i += 1;
    } else if (c == '\\' && escape_backslash) {
      piece = "\\\\";
      i += 1;
    } else {
      piece.assign(s.substr(i, n));
      i += n;
    }
    if (chars + 1 > max_chars || out.size() + piece.size() > max_bytes)
      return false;
    out += piece;
    ++chars;
  }
  return true;
}

} // namespace

bool is_utf8(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t n = utf8_sequence_length(text, i);
    if (n == 0)
      return false;
    i += n;
  }
  return true;
}

std::string shown(std::string_view value, std::size_t max_chars) {
  std::string out;
  // Characters and bytes both bounded: 80 characters of "…" are 240 bytes.
  if (!append_escaped(out, value, max_chars, 2 * max_chars, true))
    out += "\xE2\x80\xA6"; // "…"
  return out;
}

std::string one_line(std::string_view message, std::size_t max_bytes) {
  // Backslashes are left as they are: values already shown() carry their escapes.
  std::string out;
  if (append_escaped(out, message, std::string::npos, max_bytes, false))
    return out;
  out.clear();
  append_escaped(out, message, std::string::npos, max_bytes > 3 ? max_bytes - 3 : 0, false);
  return out + "\xE2\x80\xA6"; // "…"
}

void name_this_thread_rank(int rank) {
  thread_rank = rank;
}

void throw_run_error(const char* file, int line, const std::string& what) {
  std::array<char, 256> host{};
  gethostname(host.data(), host.size() - 1);
  // OMPI_COMM_WORLD_RANK / PMI_RANK are set by the launcher before MPI_Init, so the rank is known
  // even when the error happens while MPI itself is failing.
  std::string rank = thread_rank >= 0 ? std::to_string(thread_rank) : "?";
  for (const char* var : {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "SLURM_PROCID"}) {
    if (thread_rank >= 0)
      break;
    if (const char* v = std::getenv(var)) {
      rank = v;
      break;
    }
  }
  throw RunError(what + " (" + file + ":" + std::to_string(line) + ", host " + host.data() +
                 ", rank " + rank + ")");
}

} // namespace cb
