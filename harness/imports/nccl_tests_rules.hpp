#pragma once
// What makes a row of nccl-tests output believable: the figures of one half (out-of-place or
// in-place) as the tool printed them, the names it prints, and the rules that hold them to the
// tool's own definitions. Shared by the text and the JSON readers (nccl_tests_import.hpp).
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "results/record.hpp"

namespace cb::nccl_tests {

inline constexpr const char* kTool = "nccl-tests";
// Longest name, host, version or argument kept from a file: longer ones are not what nccl-tests
// prints, and copying them would let one line fill the results file.
inline constexpr std::size_t kMaxWord = 256;
inline constexpr std::size_t kMaxArgs = 512;

// What the check column of a table holds. nccl-tests before 2.13 compared results with a host
// reference and printed "error", the largest deviation of any element (a float such as 5e-07,
// %e-formatted); it judged a row by that deviation against a tolerance of the data type and
// counted the rows over it in "# Out of bounds values". Since the verifiable-data check
// (2.13), the column is "#wrong", the number of wrong elements (an integer). A deviation is not
// a count: 5e-07 in an "error" column is a clean float reduction.
enum class CheckColumn { wrong_count, max_deviation };

struct Half {
  double time_us = 0, algbw = 0, busbw = 0;
  DataCheck check = DataCheck::skipped;
  std::optional<long long> wrong;      // #wrong
  std::optional<double> max_deviation; // error
  bool noisy = false;                  // clusterbench's "~" after the check: not settled
};

// A half held to the definitions of the version that printed it. nccl-tests defines algbw as
// size / time and busbw as algbw times a factor of the collective and the rank count (its
// PERFORMANCE.md), so an edited or garbled figure shows. A table with the "error" column
// (nccl-tests before 2.13) may come from before June 2020, when all_gather and reduce_scatter
// printed the total size but computed algbw from one rank's part (size x (n - 1) / n over the
// time) and busbw equal to it: such a half is read by those definitions.
struct HalfCheck {
  std::string problem;        // "" or why the figures contradict one another or physics
  bool per_rank_part = false; // it follows the pre-2020 all_gather/reduce_scatter definition
};
HalfCheck check_half(const Half& h, long long bytes, const std::string& collective, int ranks,
                     CheckColumn column);
// The pre-2020 definition in words, for the records that follow it. Their algbw_gbps is restated
// as size / time, what the results schema and every other record mean by it (so runs of both
// eras compare); busbw is one figure under both definitions, and the table's algbw is kept.
inline constexpr const char* kPerRankPartDefinition =
    "nccl-tests before June 2020: the table's algbw (extra.algbw_printed_gbps) is size x (n-1)/n "
    "/ time and busbw equals it; algbw_gbps here is size / time";

// The tolerance nccl-tests before 2.13 allowed a deviation of one element (DeltaMaxValue in its
// common.cu), by the type name its table prints; nullopt for a type it had none for.
std::optional<double> deviation_tolerance(std::string_view type);
// The type names nccl-tests prints (test_typenames in its common.cu, old and new).
bool known_type(std::string_view type);
// clusterbench's own type names, as its collectives table prints them (runtime/dtype.cpp).
bool own_type(std::string_view type);
// Its reduction names (test_opnames), "none" for collectives that do not reduce.
bool known_redop(std::string_view op);

} // namespace cb::nccl_tests
