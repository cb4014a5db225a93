#pragma once
// Typed errors. Every error maps to one of the documented exit codes, so the CLI's top level is
// the only place that turns an error into a process exit:
//   1 a verdict failed, 2 bad input or usage, 3 the run failed.
#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>

namespace cb {

enum class ExitCode : int { ok = 0, verdict_failed = 1, bad_input = 2, run_failed = 3 };

class Error : public std::runtime_error {
public:
  Error(ExitCode code, const std::string& message) : std::runtime_error(message), code_(code) {}
  ExitCode code() const { return code_; }

private:
  ExitCode code_;
};

// Bad input or usage: the message names the file, field or flag and what is allowed.
class InputError : public Error {
public:
  explicit InputError(const std::string& message) : Error(ExitCode::bad_input, message) {}
};

// The run itself failed: a device error, a lost rank, a hang past the timeout.
class RunError : public Error {
public:
  explicit RunError(const std::string& message) : Error(ExitCode::run_failed, message) {}
};

// A value taken from the input (a flag's argument, a field, a line of a log), made safe to echo
// in a one-line message: control bytes, invalid UTF-8 and backslashes escaped (\n, \xNN, \\), and
// cut after `max_chars` characters (or 2 x `max_chars` bytes) with "…". A newline in an
// argument cannot split the line, a 50 MB field cannot make the line 50 MB.
std::string shown(std::string_view value, std::size_t max_chars = 80);

// Length of the valid UTF-8 sequence starting at s[i] (1..4), or 0 when it is not one (a stray
// byte, an overlong form, a UTF-16 surrogate, a code point past U+10FFFF, a sequence cut short).
std::size_t utf8_sequence_length(std::string_view s, std::size_t i);
// Whether `text` is valid UTF-8 (no overlong forms, surrogates or code points past U+10FFFF):
// what YAML, JSON and the kubelet take as text.
bool is_utf8(std::string_view text);

// A whole message made one line of at most `max_bytes` bytes: what shown() does, over the message,
// cut with "…" at a UTF-8 boundary. The command line's last word on any error.
std::string one_line(std::string_view message, std::size_t max_bytes = 280);

// Names the rank run errors raised on this thread report: for the ranks that are threads of one
// process (`run --single-process`); otherwise the launcher's variables name it.
void name_this_thread_rank(int rank);

// Wraps a failing call with where it happened, for errors raised from backend code.
[[noreturn]] void throw_run_error(const char* file, int line, const std::string& what);

} // namespace cb

#define CB_RUN_ERROR(msg) ::cb::throw_run_error(__FILE__, __LINE__, (msg))
