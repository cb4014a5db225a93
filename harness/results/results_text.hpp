#pragma once
// The text of a results file as every writer lays it out: the top-level keys in name order, one
// compact record per line (a whole cluster's per-rank data indented one value per line was over
// half whitespace), the fits and the run header indented for people reading them:
//   {
//    "fits": {...},
//    "records": [
//     {"case":...},
//     {"case":...}
//    ],
//    "run": {...},
//    "schema": "clusterbench.results",
//    "schema_version": 1
//   }
// In pieces, so that a file is written record by record without the records held as one tree;
// the pieces put together are the bytes results_to_json would dump in this layout.
#include <cstddef>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "results/rank_identity.hpp"
#include "results/record.hpp"

namespace cb {

// Text from other tools' logs may hold invalid UTF-8: written replaced (U+FFFD), or refused
// (nlohmann's type_error 316, naming the byte) where such text is bad input.
enum class InvalidUtf8 { replace, refuse };

// `{` and the fits, up to the opening of the records array.
std::string results_text_head(const nlohmann::json& fits, InvalidUtf8 utf8);
// What comes before record number `index` (from 0).
std::string_view record_separator(std::size_t index);
// After `records` records: the end of the array, the run header, the schema, the final newline.
std::string results_text_tail(std::size_t records, const nlohmann::json& run, InvalidUtf8 utf8);

// Appends the record as record_to_json(r).dump() would, without building that tree. On a refused
// byte it throws with `out` as it was.
void append_record_json(std::string& out, const Record& r, InvalidUtf8 utf8);
// The same, each per_rank entry without the fields `ids` (the header of the file it goes into)
// says of its rank: what loaders put back (rank_identity.hpp).
void append_record_json(std::string& out, const Record& r, InvalidUtf8 utf8,
                        const RankIdentities& ids);

} // namespace cb
