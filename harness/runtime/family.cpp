#include "runtime/family.hpp"

#include <algorithm>
#include <limits>

namespace cb {

FamilyRegistry& FamilyRegistry::instance() {
  static FamilyRegistry registry;
  return registry;
}

void FamilyRegistry::add(Factory factory) {
  pending_.push_back(factory);
}

// The families are made on first use, not at registration: static registrations run in an order
// no file controls, and a family may be registered after the first one is asked for.
void FamilyRegistry::settle() const {
  if (pending_.empty())
    return;
  for (auto factory : pending_)
    families_.push_back(factory());
  pending_.clear();
  std::stable_sort(families_.begin(), families_.end(),
                   [](const auto& a, const auto& b) { return a->order() < b->order(); });
}

const std::vector<std::unique_ptr<Family>>& FamilyRegistry::all() const {
  settle();
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

} // namespace cb
