#pragma once
// The gradient all-reduce of a data-parallel step, bucket by bucket: MPI_Iallreduce in place on
// each bucket (sum), progressed by MPI_Testall between the GEMMs that follow (Open MPI moves a
// nonblocking collective only inside MPI calls) and waited for before the optimizer step. Every
// second spent inside these MPI calls is communication the compute did not hide, and is counted
// as exposed. MPI ranks only: ranks that are threads have no MPI (the case is skipped there).
//
// The result is checked on a few elements of every bucket: rank r's gradients are its peers'
// times 2^(r mod 4) (its output gradient is scaled so; exact in floating point), so the sum is
// known from this rank's own values.
#include <mpi.h>

#include <cstdint>
#include <vector>

#include "workload/bucket_plan.hpp"

namespace cb {

// Σ_{r < ranks} 2^(r mod 4): the sum of every rank's gradient scale.
double gradient_scale_sum(int ranks);
// Rank r's gradient scale, 2^(r mod 4).
float gradient_scale(int rank);

class GradientSync {
public:
  GradientSync(MPI_Comm comm, float* gradients, std::vector<GradientBucket> buckets);
  ~GradientSync(); // waits for anything still in flight (an exception between start and wait)
  GradientSync(const GradientSync&) = delete;
  GradientSync& operator=(const GradientSync&) = delete;

  const std::vector<GradientBucket>& buckets() const { return buckets_; }
  // Starts bucket b's all-reduce (its gradients must be complete).
  void start(std::size_t b);
  // Lets the started all-reduces move (a nonblocking test); cheap when none is in flight.
  void progress();
  // Waits for every started all-reduce.
  void wait_all();
  // Seconds spent inside MPI calls since the last take_mpi_seconds().
  double take_mpi_seconds();
  // Elements checked and found wrong so far, over every step.
  long long checked() const { return checked_; }
  long long wrong() const { return wrong_; }

private:
  static constexpr int kSamplesPerBucket = 8;
  void check_bucket(std::size_t b);

  MPI_Comm comm_;
  int ranks_ = 1;
  float own_scale_ = 1;
  double scale_sum_ = 1;
  float* gradients_;
  std::vector<GradientBucket> buckets_;
  std::vector<MPI_Request> requests_;
  std::vector<bool> started_;
  std::vector<float> before_; // kSamplesPerBucket values per bucket, taken at start
  int in_flight_ = 0;
  double mpi_seconds_ = 0;
  long long checked_ = 0;
  long long wrong_ = 0;
};

} // namespace cb
