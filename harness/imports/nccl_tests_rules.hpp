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

// "" or why a half's figures contradict one another or physics (see the definition).
std::string implausible_half(const Half& h, long long bytes, const std::string& collective,
                             int ranks);

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
