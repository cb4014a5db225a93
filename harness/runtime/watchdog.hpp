#pragma once
// A hang never waits forever: while armed, a watchdog thread aborts the whole job with exit code 3
// if the armed step makes no progress within the timeout. A step that is long by design (a pair
// test: one round per node, thousands at scale) says so after each part (progressing()), so the
// timeout bounds a part, not the whole. Records already written stay on disk.
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

namespace cb {

class Watchdog {
public:
  // rank: the world rank named when it fires.
  Watchdog(double timeout_s, int rank);
  ~Watchdog();
  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;
  void arm(const std::string& what);
  void disarm();
  // The armed step moved on: its deadline starts again from now.
  void progressing();

private:
  void watch();
  std::chrono::duration<double> timeout_;
  int rank_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::string what_;
  std::chrono::steady_clock::time_point deadline_{};
  bool armed_ = false;
  bool stop_ = false;
  std::thread thread_;
};

// Arms on construction, disarms on destruction.
class WatchdogScope {
public:
  WatchdogScope(Watchdog& dog, const std::string& what) : dog_(dog) { dog_.arm(what); }
  ~WatchdogScope() { dog_.disarm(); }
  WatchdogScope(const WatchdogScope&) = delete;
  WatchdogScope& operator=(const WatchdogScope&) = delete;

private:
  Watchdog& dog_;
};

} // namespace cb
