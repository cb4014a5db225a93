#include "analysis/fit_warnings.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <sstream>

namespace cb {
namespace {

// Relative RMS of the residuals below which a fit is taken as exact: far above rounding error
// (the fitters stop near 1e-7 relative), far below any measurement noise (0.1 % and up).
constexpr double kExactResidual = 1e-6;

std::string number(double v) {
  std::ostringstream out;
  out.precision(3);
  out << v;
  return out.str();
}

std::string curves_text(std::size_t n) {
  return std::to_string(n) + (n == 1 ? " curve" : " curves");
}

// "USL/Amdahl": the laws in the order first seen.
std::string laws_text(const std::vector<std::string>& laws) {
  std::string out;
  for (const auto& l : laws)
    out += (out.empty() ? "" : "/") + l;
  return out;
}

void add_once(std::vector<std::string>& list, const std::string& item) {
  if (std::find(list.begin(), list.end(), item) == list.end())
    list.push_back(item);
}

// Why a law has no fit, in the fewest words: the GPU counts against those needed, else the fit's
// own first reason.
std::string unfitted_reason(const CurveLawNote& note) {
  if (is_too_few_counts(note.warning)) {
    return std::to_string(note.counts) + " GPU count" + (note.counts == 1 ? "" : "s") +
           ", need " + std::to_string(kMinimumFitCounts);
  }
  return note.warning.empty() ? std::string("no reason given") : note.warning;
}

} // namespace

bool is_too_few_counts(const std::string& warning) {
  return warning.rfind("needs at least", 0) == 0;
}

std::vector<std::string> summarize_fit_notes(const std::vector<CurveLawNote>& notes) {
  struct Group {
    std::string text;
    std::vector<std::string> laws;
    std::set<std::string> curves;
    std::string first_curve;
  };
  std::vector<Group> unfitted, caveats;
  std::set<std::string> unfitted_curves;
  auto group_of = [](std::vector<Group>& groups, const std::string& text) -> Group& {
    auto it = std::find_if(groups.begin(), groups.end(),
                           [&](const Group& g) { return g.text == text; });
    if (it == groups.end())
      it = groups.insert(groups.end(), Group{text, {}, {}, {}});
    return *it;
  };
  for (const auto& n : notes) {
    if (!n.fitted) {
      Group& g = group_of(unfitted, unfitted_reason(n));
      add_once(g.laws, n.law);
      g.curves.insert(n.curve);
      unfitted_curves.insert(n.curve);
    } else if (!n.warning.empty()) {
      Group& g = group_of(caveats, n.law + ": " + n.warning);
      if (g.curves.empty())
        g.first_curve = n.curve;
      g.curves.insert(n.curve);
    }
  }
  std::vector<std::string> lines;
  for (const auto& g : caveats) {
    lines.push_back(g.curves.size() == 1 ? g.first_curve + ": " + g.text
                                         : g.text + " (" + curves_text(g.curves.size()) + ")");
  }
  if (unfitted.size() == 1) {
    const Group& g = unfitted.front();
    lines.push_back(laws_text(g.laws) + " not fitted for " + curves_text(g.curves.size()) + ": " +
                    g.text);
  } else if (unfitted.size() > 1) {
    std::vector<std::string> laws;
    for (const auto& g : unfitted) {
      for (const auto& l : g.laws)
        add_once(laws, l);
    }
    // Each reason's laws only where they are not all of them.
    std::string reasons;
    for (const auto& g : unfitted) {
      const std::string which = g.laws.size() == laws.size() ? "" : laws_text(g.laws) + ", ";
      reasons += (reasons.empty() ? "" : "; ") + g.text + " (" + which +
                 curves_text(g.curves.size()) + ")";
    }
    lines.push_back(laws_text(laws) + " not fitted for " + curves_text(unfitted_curves.size()) +
                    ": " + reasons);
  }
  return lines;
}

int distinct_counts(const std::vector<double>& n, bool skip_one) {
  std::set<double> seen;
  for (double v : n) {
    if (!(skip_one && v == 1))
      seen.insert(v);
  }
  return static_cast<int>(seen.size());
}

std::optional<std::string> exact_fit_warning(int counts, int parameters,
                                             const std::string& parameter_names) {
  if (counts > parameters)
    return std::nullopt;
  return std::to_string(counts) + " informative GPU count" + (counts == 1 ? "" : "s") + " for " +
         std::to_string(parameters) + " parameters (" + parameter_names +
         "): none is left over to test the law, so its R² says little about it; measure at " +
         std::to_string(parameters + 1) + " or more GPU counts";
}

std::optional<std::string> negative_r2_warning(double r2) {
  if (!(r2 < 0))
    return std::nullopt;
  return "R² = " + number(r2) +
         " < 0: the law describes these points worse than their mean does; its parameters and "
         "predictions do not describe this curve";
}

bool fits_exactly(const std::vector<double>& observed, const std::vector<double>& fitted) {
  double residual = 0, scale = 0;
  for (std::size_t i = 0; i < observed.size() && i < fitted.size(); ++i) {
    residual += (observed[i] - fitted[i]) * (observed[i] - fitted[i]);
    scale += observed[i] * observed[i];
  }
  return residual <= kExactResidual * kExactResidual * scale;
}

std::string held_at_bound_warning(const std::vector<std::string>& names, const std::string& side,
                                  double bound, const std::string& why) {
  std::string list;
  for (std::size_t i = 0; i < names.size(); ++i)
    list += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
  const bool one = names.size() == 1;
  return list + (one ? " held at its " : " held at their ") + side + " bound " + number(bound) +
         ": " + why;
}

} // namespace cb
