#include "runtime/family.hpp"

#include <algorithm>
#include <limits>

#include "core/error.hpp"

namespace cb {

FamilyRegistry& FamilyRegistry::instance() {
  static FamilyRegistry registry;
  return registry;
}

// Made and ordered at registration, during static initialisation: later the registry is only
// read, by any thread (the ranks of --single-process ask it at once).
void FamilyRegistry::add(Factory factory) {
  families_.push_back(factory());
  std::stable_sort(families_.begin(), families_.end(),
                   [](const auto& a, const auto& b) { return a->order() < b->order(); });
}

const std::vector<std::unique_ptr<Family>>& FamilyRegistry::all() const {
  return families_;
}

const Family* FamilyRegistry::find(const std::string& suite) const {
  for (const auto& f : all()) {
    if (f->suite() == suite)
      return f.get();
  }
  return nullptr;
}

int FamilyRegistry::order_of(const std::string& suite) const {
  const Family* f = find(suite);
  return f ? f->order() : std::numeric_limits<int>::max();
}

std::string families_job_problem(const RunConfig& config,
                                 const std::vector<std::string>& host_of_rank) {
  try {
    for (const auto& family : FamilyRegistry::instance().all())
      family->check_job(config, host_of_rank);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

} // namespace cb
