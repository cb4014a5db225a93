#include "runtime/thread_comm.hpp"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <numeric>

#include "core/error.hpp"
#include "runtime/communicator.hpp"

namespace cb::detail {
namespace {

using Bytes = std::vector<char>;

class ThreadGroup;

// What every group of one thread world shares: whether a rank has failed, and why. Failing wakes
// every member waiting in any group, and each then stops with the failing rank's message, where
// MPI_Abort would have killed the processes: the other threads may be waiting for the failed one.
class ThreadJob {
public:
  void add(const std::shared_ptr<ThreadGroup>& group) {
    std::lock_guard lock(mutex_);
    groups_.push_back(group);
  }
  // The first failure is the job's; later ones only wake the waiters again.
  void fail(int code, const std::string& why);
  bool failed() const { return failed_.load(); }
  int code() const {
    std::lock_guard lock(mutex_);
    return code_;
  }
  std::string why() const {
    std::lock_guard lock(mutex_);
    return why_;
  }

private:
  mutable std::mutex mutex_;
  std::atomic<bool> failed_{false};
  int code_ = 0;
  std::string why_;
  std::vector<std::weak_ptr<ThreadGroup>> groups_;
};

// What the members of one group share. Every operation is an exchange: each member leaves its
// bytes in its slot, all meet, each copies what it needs, all meet again so that the slots can be
// reused by the next operation.
class ThreadGroup {
public:
  ThreadGroup(std::vector<int> world_ranks, std::shared_ptr<ThreadJob> job)
      : world_ranks_(std::move(world_ranks)), job_(std::move(job)), slots_(world_ranks_.size()),
        children_(world_ranks_.size()) {}

  ThreadJob& job() const { return *job_; }
  const std::shared_ptr<ThreadJob>& shared_job() const { return job_; }

  // Wakes the waiting members so they see the job has failed.
  void wake() {
    { std::lock_guard lock(mutex_); }
    opened_.notify_all();
  }

  int size() const { return static_cast<int>(world_ranks_.size()); }
  const std::vector<int>& world_ranks() const { return world_ranks_; }

  void barrier() {
    std::unique_lock lock(mutex_);
    arrive_and_wait(lock);
  }

  std::vector<Bytes> exchange(int rank, Bytes mine) {
    std::unique_lock lock(mutex_);
    slots_[static_cast<std::size_t>(rank)] = std::move(mine);
    arrive_and_wait(lock);
    std::vector<Bytes> all = slots_;
    arrive_and_wait(lock);
    return all;
  }

  // The group made by member `leader` for its color, handed to the other members.
  std::shared_ptr<ThreadGroup> hand_over(int rank, int leader, std::shared_ptr<ThreadGroup> made) {
    std::unique_lock lock(mutex_);
    children_[static_cast<std::size_t>(rank)] = std::move(made);
    arrive_and_wait(lock);
    std::shared_ptr<ThreadGroup> mine =
        leader < 0 ? nullptr : children_[static_cast<std::size_t>(leader)];
    arrive_and_wait(lock);
    children_[static_cast<std::size_t>(rank)].reset();
    return mine;
  }

private:
  // A generation-counted barrier: the last to arrive opens it for everyone waiting.
  void arrive_and_wait(std::unique_lock<std::mutex>& lock) {
    stop_if_failed();
    const unsigned long long generation = generation_;
    if (++arrived_ == size()) {
      arrived_ = 0;
      ++generation_;
      opened_.notify_all();
      return;
    }
    opened_.wait(lock, [&] { return generation_ != generation || job_->failed(); });
    if (generation_ == generation)
      stop_if_failed();
  }

  void stop_if_failed() const {
    if (job_->failed())
      throw RankStopped(job_->code(), job_->why());
  }

  const std::vector<int> world_ranks_;
  const std::shared_ptr<ThreadJob> job_;
  std::mutex mutex_;
  std::condition_variable opened_;
  int arrived_ = 0;
  unsigned long long generation_ = 0;
  std::vector<Bytes> slots_;
  std::vector<std::shared_ptr<ThreadGroup>> children_;
};

void ThreadJob::fail(int code, const std::string& why) {
  std::vector<std::weak_ptr<ThreadGroup>> groups;
  {
    std::lock_guard lock(mutex_);
    if (!failed_.load()) {
      code_ = code;
      why_ = why;
      failed_.store(true);
    }
    groups = groups_;
  }
  for (const auto& weak : groups) {
    if (auto group = weak.lock())
      group->wake();
  }
}

template <typename T> Bytes bytes_of(const T& value) {
  Bytes out(sizeof(T));
  std::memcpy(out.data(), &value, sizeof(T));
  return out;
}

template <typename T> T value_of(const Bytes& bytes) {
  T value{};
  std::memcpy(&value, bytes.data(), sizeof(T));
  return value;
}

class ThreadComm : public CommImpl {
public:
  ThreadComm(std::shared_ptr<ThreadGroup> group, int rank)
      : group_(std::move(group)), rank_(rank) {}

  int rank() const override { return rank_; }
  int size() const override { return group_->size(); }

  std::unique_ptr<CommImpl> split(int color, int key) const override {
    struct Ask {
      int color, key;
    };
    std::vector<Ask> asks;
    for (const Bytes& b : group_->exchange(rank_, bytes_of(Ask{color, key})))
      asks.push_back(value_of<Ask>(b));
    if (color < 0) {
      group_->hand_over(rank_, -1, nullptr);
      return nullptr;
    }
    // MPI_Comm_split's order: by key, ties by old rank.
    std::vector<int> members;
    for (int r = 0; r < size(); ++r) {
      if (asks[static_cast<std::size_t>(r)].color == color)
        members.push_back(r);
    }
    std::stable_sort(members.begin(), members.end(), [&](int a, int b) {
      return asks[static_cast<std::size_t>(a)].key < asks[static_cast<std::size_t>(b)].key;
    });
    const int leader = *std::min_element(members.begin(), members.end());
    std::shared_ptr<ThreadGroup> made;
    if (rank_ == leader) {
      std::vector<int> world;
      for (int r : members)
        world.push_back(group_->world_ranks()[static_cast<std::size_t>(r)]);
      made = std::make_shared<ThreadGroup>(std::move(world), group_->shared_job());
      group_->job().add(made);
    }
    std::shared_ptr<ThreadGroup> group = group_->hand_over(rank_, leader, made);
    const auto pos = std::find(members.begin(), members.end(), rank_) - members.begin();
    return std::make_unique<ThreadComm>(std::move(group), static_cast<int>(pos));
  }

  // One process is one node.
  std::unique_ptr<CommImpl> split_shared() const override { return split(0, rank_); }

  void barrier() const override { group_->barrier(); }
  // Waiting threads sleep on a condition variable already.
  void idle_barrier() const override { group_->barrier(); }

  double max(double value) const override {
    double out = value;
    for (const Bytes& b : group_->exchange(rank_, bytes_of(value)))
      out = std::max(out, value_of<double>(b));
    return out;
  }
  // Summed in rank order, so every member gets the same bits.
  double sum(double value) const override { return sum_of(value); }
  long long sum(long long value) const override { return sum_of(value); }

  void broadcast(void* data, int bytes) const override {
    const auto n = static_cast<std::size_t>(bytes);
    Bytes mine;
    if (rank_ == 0)
      mine.assign(static_cast<const char*>(data), static_cast<const char*>(data) + n);
    const std::vector<Bytes> all = group_->exchange(rank_, std::move(mine));
    if (rank_ != 0 && n > 0)
      std::memcpy(data, all[0].data(), n);
  }

  std::vector<double> gather(double value) const override {
    const std::vector<Bytes> all = group_->exchange(rank_, bytes_of(value));
    std::vector<double> out;
    if (rank_ == 0) {
      for (const Bytes& b : all)
        out.push_back(value_of<double>(b));
    }
    return out;
  }

  Extremes extremes(double value) const override {
    Extremes e;
    const std::vector<Bytes> all = group_->exchange(rank_, bytes_of(value));
    e.min = e.max = value_of<double>(all[0]);
    for (std::size_t r = 1; r < all.size(); ++r) {
      const double v = value_of<double>(all[r]);
      if (v < e.min) {
        e.min = v;
        e.min_rank = static_cast<int>(r);
      }
      if (v > e.max) {
        e.max = v;
        e.max_rank = static_cast<int>(r);
      }
    }
    return e;
  }

  std::vector<std::vector<double>>
  gather_vectors(const std::vector<double>& values) const override {
    Bytes mine(values.size() * sizeof(double));
    if (!values.empty())
      std::memcpy(mine.data(), values.data(), mine.size());
    const std::vector<Bytes> all = group_->exchange(rank_, std::move(mine));
    std::vector<std::vector<double>> out;
    if (rank_ == 0) {
      for (const Bytes& b : all) {
        std::vector<double> theirs(b.size() / sizeof(double));
        if (!theirs.empty())
          std::memcpy(theirs.data(), b.data(), b.size());
        out.push_back(std::move(theirs));
      }
    }
    return out;
  }

  std::vector<std::string> gather_string(const std::string& value) const override {
    std::vector<std::string> out;
    const std::vector<Bytes> all = group_->exchange(rank_, Bytes(value.begin(), value.end()));
    if (rank_ == 0) {
      for (const Bytes& b : all)
        out.emplace_back(b.begin(), b.end());
    }
    return out;
  }

  std::vector<std::string> all_gather_string(const std::string& value) const override {
    std::vector<std::string> out;
    for (const Bytes& b : group_->exchange(rank_, Bytes(value.begin(), value.end())))
      out.emplace_back(b.begin(), b.end());
    return out;
  }

  std::vector<int> all_gather_int(int value) const override {
    std::vector<int> out;
    for (const Bytes& b : group_->exchange(rank_, bytes_of(value)))
      out.push_back(value_of<int>(b));
    return out;
  }

  std::vector<int> world_ranks() const override { return group_->world_ranks(); }
  int world_rank() const { return group_->world_ranks()[static_cast<std::size_t>(rank_)]; }

  [[noreturn]] void abort(int code, const std::string& why) const override {
    // Not the process's end: rank 0 may be writing the failed record. Every thread waiting for
    // this one is woken to stop, and this one leaves its rank (run --single-process ends the
    // process once the threads are back, or after a grace period).
    group_->job().fail(code, "rank " + std::to_string(world_rank()) + " failed: " + why);
    throw RankStopped(group_->job().code(), group_->job().why());
  }

private:
  template <typename T> T sum_of(T value) const {
    T out{};
    for (const Bytes& b : group_->exchange(rank_, bytes_of(value)))
      out += value_of<T>(b);
    return out;
  }

  std::shared_ptr<ThreadGroup> group_;
  int rank_;
};

} // namespace

std::vector<std::unique_ptr<CommImpl>> thread_world(int n) {
  if (n < 1)
    throw InputError("a single-process run needs at least one rank, got " + std::to_string(n));
  std::vector<int> ranks(static_cast<std::size_t>(n));
  std::iota(ranks.begin(), ranks.end(), 0);
  auto job = std::make_shared<ThreadJob>();
  auto group = std::make_shared<ThreadGroup>(std::move(ranks), job);
  job->add(group);
  std::vector<std::unique_ptr<CommImpl>> out;
  for (int r = 0; r < n; ++r)
    out.push_back(std::make_unique<ThreadComm>(group, r));
  return out;
}

} // namespace cb::detail
