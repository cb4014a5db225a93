#include "runtime/case.hpp"

#include <algorithm>

#include "runtime/axis_values.hpp"
#include "runtime/family.hpp"

namespace cb {

std::vector<nlohmann::json> BenchmarkCase::instances(const RunConfig& config) const {
  return axis_product(name(), axes(), config);
}

std::vector<Record> run_instance(BenchmarkCase& c, const CaseContext& ctx,
                                 const nlohmann::json& params) {
  CaseRun run(ctx, ctx.new_record(c.suite(), c.name(), params));
  c.run(run, params);
  return run.take_records();
}

CaseRegistry& CaseRegistry::instance() {
  static CaseRegistry registry;
  return registry;
}

void CaseRegistry::add(Factory factory) {
  factories_.push_back(factory);
}

std::vector<std::unique_ptr<BenchmarkCase>> CaseRegistry::create_all() const {
  std::vector<std::unique_ptr<BenchmarkCase>> cases;
  for (auto factory : factories_)
    cases.push_back(factory());
  // The families' order; a suite of no family after them, in registration order.
  const FamilyRegistry& families = FamilyRegistry::instance();
  std::stable_sort(cases.begin(), cases.end(), [&families](const auto& a, const auto& b) {
    return families.order_of(a->suite()) < families.order_of(b->suite());
  });
  return cases;
}

std::vector<std::string> CaseRegistry::suites() const {
  std::vector<std::string> out;
  for (const auto& c : create_all()) {
    if (std::find(out.begin(), out.end(), c->suite()) == out.end())
      out.push_back(c->suite());
  }
  return out;
}

std::vector<std::string> CaseRegistry::case_names(const std::string& suite) const {
  std::vector<std::string> out;
  for (const auto& c : create_all()) {
    if (c->suite() == suite)
      out.push_back(c->name());
  }
  return out;
}

} // namespace cb
