#pragma once
// How a record ended and what its data check said, as types: a misspelt state does not compile.
// The words are the schema's (results/results.schema.json) and are converted only where a
// record is written or read.
#include <iosfwd>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace cb {

// ok: measured and settled; noisy: measured, spread above the target at the stop; skipped: not
// measured, with the reason; failed: could not run, or its data was wrong.
enum class RecordStatus { ok, noisy, skipped, failed };
// pass: the data was verified; fail: it was wrong; skipped: not verified (with the reason).
enum class DataCheck { pass, fail, skipped };

const char* to_string(RecordStatus s);
const char* to_string(DataCheck c);
// nullopt for a word the schema does not have.
std::optional<RecordStatus> record_status_from(std::string_view word);
std::optional<DataCheck> data_check_from(std::string_view word);

// The schema's word in JSON (never the enum's number); reading an unknown word throws
// InputError (the loader checks the word first and names the record).
void to_json(nlohmann::json& j, RecordStatus s);
void to_json(nlohmann::json& j, DataCheck c);
void from_json(const nlohmann::json& j, RecordStatus& s);
void from_json(const nlohmann::json& j, DataCheck& c);
// The schema's word, in streams (test messages print it too).
std::ostream& operator<<(std::ostream& out, RecordStatus s);
std::ostream& operator<<(std::ostream& out, DataCheck c);
// For text: "noisy", "pass".
inline std::string operator+(const std::string& text, RecordStatus s) { return text + to_string(s); }
inline std::string operator+(const std::string& text, DataCheck c) { return text + to_string(c); }

} // namespace cb
