#pragma once
// Looking into a PromDocument from the tests.
#include <algorithm>
#include <string>

#include "exporters/prometheus_text.hpp"

namespace cb::test {

// The family `name`, or nullptr.
inline const PromFamily* family(const PromDocument& doc, const std::string& name) {
  const auto& f = doc.families();
  const auto it = std::find_if(f.begin(), f.end(), [&](const auto& x) { return x.name == name; });
  return it == f.end() ? nullptr : &*it;
}

// The sample's value of label `name`, empty when it has none.
inline std::string label(const PromSample& s, const std::string& name) {
  for (const auto& l : s.labels) {
    if (l.name == name)
      return l.value;
  }
  return "";
}

} // namespace cb::test
