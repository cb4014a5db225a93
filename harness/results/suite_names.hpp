#pragma once
// The suites a record can name, where harness must name one: an importer making records of
// another tool's output, an analysis reading one suite's records. Everything else a family knows
// (its order, its report sentence, its plan) it says itself (runtime/family.hpp).
namespace cb::suite_names {

inline constexpr char kCompute[] = "compute";
inline constexpr char kLinks[] = "links";
inline constexpr char kCollectives[] = "collectives";
inline constexpr char kStorage[] = "storage";
inline constexpr char kWorkload[] = "workload";
// Every suite clusterbench writes, as its console tables head them.
inline constexpr const char* kAll[] = {kCompute, kLinks, kCollectives, kStorage, kWorkload};

} // namespace cb::suite_names
