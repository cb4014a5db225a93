#pragma once
// The alpha-beta (Hockney) cost model of collectives (Thakur, Rabenseifner and Gropp 2005):
// a message of n bytes costs alpha + n beta. Two fits:
//   per GPU count, each collective:  T(n) = a + b n          (a latency, 1/b bandwidth)
//   ring all-reduce over GPU counts: T(n, p) = 2(p-1) alpha + 2(p-1)/p n beta,   p >= 2
// Times span microseconds to seconds across message sizes, so both are fitted on relative error
// (weights 1/T^2): an unweighted fit would let the largest message decide the latency alone.
// r2 is weighted the same way. Coefficients are kept non-negative; one the data wanted negative is
// held at 0 with a warning.
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "results/record.hpp"

namespace cb {

struct HockneyFit {
  std::string case_name;
  nlohmann::json params; // the records' params without "bytes"
  int gpus = 0;
  std::string tier;
  bool ok = false;
  double latency_s = 0;        // a
  double seconds_per_byte = 0; // b
  double r2 = 0;               // of T, weighted like the fit
  int points = 0;
  double min_bytes = 0, max_bytes = 0;
  std::vector<std::string> warnings;

  double time(double bytes) const { return latency_s + seconds_per_byte * bytes; }
  // 1 / b in GB/s (0 when b is 0).
  double bandwidth_gbps() const { return seconds_per_byte > 0 ? 1e-9 / seconds_per_byte : 0; }
};

// One fit per (collective case, params other than bytes, GPU count >= 2) with 2 or more message
// sizes.
std::vector<HockneyFit> fit_hockney(const ResultsFile& results);

struct RingAllReduceFit {
  std::string tier; // intra, inter, or the only tier present
  bool ok = false;
  double alpha_s = 0;         // per-message latency
  double beta_s_per_byte = 0; // inverse link bandwidth
  double r2 = 0;              // of T, weighted like the fit
  int points = 0;
  std::vector<int> gpus; // GPU counts the fit saw
  // Not fitted: the inter-node tier priced on a link the user assumed (--plan-link).
  bool assumed = false;
  std::vector<std::string> warnings;

  // Ring all-reduce time of `bytes` on `ranks` GPUs (0 on one GPU).
  double time(double bytes, int ranks) const;
  double bandwidth_gbps() const { return beta_s_per_byte > 0 ? 1e-9 / beta_s_per_byte : 0; }
};

// all_reduce records (out-of-place ones when any exist) at p >= 2, one fit per tier present.
std::vector<RingAllReduceFit> fit_ring_all_reduce(const ResultsFile& results);

} // namespace cb
