#include "runtime/communicator.hpp"

#include <cstdlib>
#include <utility>

#include "runtime/comm_impl.hpp"
#include "runtime/thread_comm.hpp"

namespace cb {

Communicator::Communicator() = default;
Communicator::Communicator(std::unique_ptr<detail::CommImpl> impl) : impl_(std::move(impl)) {}
Communicator::~Communicator() = default;
Communicator::Communicator(Communicator&& other) noexcept = default;
Communicator& Communicator::operator=(Communicator&& other) noexcept = default;

Communicator Communicator::world() {
  return Communicator(detail::mpi_world());
}

std::vector<Communicator> Communicator::threads(int n) {
  std::vector<Communicator> out;
  for (auto& impl : detail::thread_world(n))
    out.push_back(Communicator(std::move(impl)));
  return out;
}

MPI_Comm Communicator::get() const {
  return impl_ ? impl_->mpi() : MPI_COMM_NULL;
}
int Communicator::rank() const {
  return impl_->rank();
}
int Communicator::size() const {
  return impl_->size();
}
std::vector<int> Communicator::world_ranks() const {
  return impl_->world_ranks();
}
void Communicator::abort(int code, const std::string& why) const {
  impl_->abort(code, why);
  std::_Exit(code); // not reached: every implementation ends the job
}
Communicator Communicator::split(int color, int key) const {
  return Communicator(impl_->split(color, key));
}
Communicator Communicator::split_shared() const {
  return Communicator(impl_->split_shared());
}
void Communicator::barrier() const {
  impl_->barrier();
}
void Communicator::idle_barrier() const {
  impl_->idle_barrier();
}
double Communicator::max(double value) const {
  return impl_->max(value);
}
double Communicator::sum(double value) const {
  return impl_->sum(value);
}
long long Communicator::sum(long long value) const {
  return impl_->sum(value);
}
void Communicator::broadcast(void* data, int bytes) const {
  impl_->broadcast(data, bytes);
}
int Communicator::broadcast_int(int value) const {
  broadcast(&value, sizeof value);
  return value;
}
std::string Communicator::broadcast_string(const std::string& value) const {
  const int bytes = broadcast_int(static_cast<int>(value.size()));
  std::string out = rank() == 0 ? value : std::string(static_cast<std::size_t>(bytes), '\0');
  if (bytes > 0)
    broadcast(out.data(), bytes);
  return out;
}
std::vector<double> Communicator::gather(double value) const {
  return impl_->gather(value);
}
Extremes Communicator::extremes(double value) const {
  return impl_->extremes(value);
}
std::vector<std::vector<double>>
Communicator::gather_vectors(const std::vector<double>& values) const {
  return impl_->gather_vectors(values);
}
std::vector<std::string> Communicator::gather_string(const std::string& value) const {
  return impl_->gather_string(value);
}
std::vector<std::string> Communicator::all_gather_string(const std::string& value) const {
  return impl_->all_gather_string(value);
}
std::vector<int> Communicator::all_gather_int(int value) const {
  return impl_->all_gather_int(value);
}

std::string first_problem_anywhere(const Communicator& world, const std::string& mine) {
  // Usually no rank has one: a reduction of a number says so, without every rank receiving
  // every rank's empty message (8,192 of them at 1,024 nodes x 8, on each of 8,192 ranks).
  if (world.sum(static_cast<long long>(!mine.empty())) == 0)
    return "";
  for (const auto& problem : world.all_gather_string(mine)) {
    if (!problem.empty())
      return problem;
  }
  return "";
}

} // namespace cb
