#include "workload/gradient_sync.hpp"

#include <chrono>
#include <cmath>
#include <limits>

#include "runtime/communicator.hpp"

namespace cb {
namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

std::uint64_t sample_index(const GradientBucket& b, int i, int samples) {
  // Spread over the bucket, its first and last element included.
  if (b.count == 1)
    return b.offset;
  return b.offset +
         (b.count - 1) * static_cast<std::uint64_t>(i) / static_cast<std::uint64_t>(samples - 1);
}

} // namespace

double gradient_scale_sum(int ranks) {
  double sum = 0;
  for (int r = 0; r < ranks; ++r)
    sum += gradient_scale(r);
  return sum;
}

float gradient_scale(int rank) {
  return static_cast<float>(1 << (rank % 4));
}

GradientSync::GradientSync(MPI_Comm comm, float* gradients, std::vector<GradientBucket> buckets)
    : comm_(comm), gradients_(gradients), buckets_(std::move(buckets)),
      requests_(buckets_.size(), MPI_REQUEST_NULL), started_(buckets_.size(), false),
      before_(buckets_.size() * kSamplesPerBucket, 0.0f) {
  int rank = 0;
  check_mpi(MPI_Comm_size(comm_, &ranks_), "MPI_Comm_size");
  check_mpi(MPI_Comm_rank(comm_, &rank), "MPI_Comm_rank");
  own_scale_ = gradient_scale(rank);
  scale_sum_ = gradient_scale_sum(ranks_);
}

GradientSync::~GradientSync() {
  if (in_flight_ > 0)
    MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE);
}

void GradientSync::start(std::size_t b) {
  const GradientBucket& bucket = buckets_[b];
  for (int i = 0; i < kSamplesPerBucket; ++i)
    before_[b * kSamplesPerBucket + i] = gradients_[sample_index(bucket, i, kSamplesPerBucket)];
  const auto start = Clock::now();
  check_mpi(MPI_Iallreduce(MPI_IN_PLACE, gradients_ + bucket.offset, static_cast<int>(bucket.count),
                           MPI_FLOAT, MPI_SUM, comm_, &requests_[b]),
            "MPI_Iallreduce");
  mpi_seconds_ += since(start);
  started_[b] = true;
  ++in_flight_;
}

void GradientSync::progress() {
  if (in_flight_ == 0)
    return;
  const auto start = Clock::now();
  int done = 0;
  check_mpi(
      MPI_Testall(static_cast<int>(requests_.size()), requests_.data(), &done, MPI_STATUSES_IGNORE),
      "MPI_Testall");
  mpi_seconds_ += since(start);
  if (done)
    wait_all(); // nothing left to wait for: checks the buckets and resets them
}

void GradientSync::wait_all() {
  const auto start = Clock::now();
  check_mpi(MPI_Waitall(static_cast<int>(requests_.size()), requests_.data(), MPI_STATUSES_IGNORE),
            "MPI_Waitall");
  mpi_seconds_ += since(start);
  in_flight_ = 0;
  for (std::size_t b = 0; b < buckets_.size(); ++b) {
    if (started_[b])
      check_bucket(b);
    started_[b] = false;
  }
}

double GradientSync::take_mpi_seconds() {
  const double s = mpi_seconds_;
  mpi_seconds_ = 0;
  return s;
}

void GradientSync::check_bucket(std::size_t b) {
  // Every rank's value is the unscaled gradient times its own scale, exactly; their sum carries
  // one rounding per addition, all of one sign, so it is within ranks x epsilon of the exact sum.
  const double tolerance = 4.0 * ranks_ * std::numeric_limits<float>::epsilon();
  for (int i = 0; i < kSamplesPerBucket; ++i) {
    const double mine = before_[b * kSamplesPerBucket + i];
    const double want = mine / own_scale_ * scale_sum_;
    const double got = gradients_[sample_index(buckets_[b], i, kSamplesPerBucket)];
    ++checked_;
    if (!(std::abs(got - want) <= tolerance * std::abs(want) + 1e-30))
      ++wrong_;
  }
}

} // namespace cb
