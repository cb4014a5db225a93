#include "report/stored_fits.hpp"

#include "results/suite_names.hpp"

#include <cmath>

namespace cb::report {
namespace {

using nlohmann::json;

std::string curve_id(const std::string& suite, const std::string& case_name,
                     const std::string& metric, const json& params) {
  return suite + '\n' + case_name + '\n' + metric + '\n' + params.dump();
}

// A number, or nullopt for null; false in `ok` for any other type.
std::optional<double> number_field(const json& j, const char* key, bool& ok) {
  const auto it = j.find(key);
  if (it == j.end() || it->is_null())
    return std::nullopt;
  if (!it->is_number()) {
    ok = false;
    return std::nullopt;
  }
  return it->get<double>();
}

int count_field(const json& j, const char* key, bool& ok) {
  const auto it = j.find(key);
  if (it == j.end() || it->is_null())
    return 0;
  if (!it->is_number_integer()) {
    ok = false;
    return 0;
  }
  return it->get<int>();
}

std::vector<std::string> warnings_field(const json& j, bool& ok) {
  std::vector<std::string> warnings;
  const auto it = j.find("warnings");
  if (it == j.end() || it->is_null())
    return warnings;
  if (!it->is_array()) {
    ok = false;
    return warnings;
  }
  for (const auto& w : *it) {
    if (!w.is_string()) {
      ok = false;
      return {};
    }
    warnings.push_back(w.get<std::string>());
  }
  return warnings;
}

bool same_points(const json& entry, const Curve& curve) {
  const auto gpus = entry.find("gpus");
  const auto values = entry.find("values");
  if (gpus == entry.end() || values == entry.end() || !gpus->is_array() || !values->is_array()) {
    return false;
  }
  if (gpus->size() != curve.gpus.size() || values->size() != curve.value.size())
    return false;
  for (std::size_t i = 0; i < curve.gpus.size(); ++i) {
    const auto& g = (*gpus)[i];
    const auto& v = (*values)[i];
    if (!g.is_number_integer() || g.get<long long>() != curve.gpus[i] || !v.is_number())
      return false;
    const double stored = v.get<double>();
    if (!(std::fabs(stored - curve.value[i]) <= 1e-6 * std::max(1.0, std::fabs(curve.value[i])))) {
      return false;
    }
  }
  return true;
}

} // namespace

std::optional<UslFit> usl_from_json(const json& j) {
  if (!j.is_object())
    return std::nullopt;
  bool shape_ok = true;
  UslFit fit;
  if (const auto m = j.find("method"); m != j.end()) {
    if (!m->is_string())
      return std::nullopt;
    if (*m == "nls") {
      fit.method = UslMethod::nls;
    } else if (*m == "linearised") {
      fit.method = UslMethod::linearised;
    } else {
      return std::nullopt;
    }
  }
  const auto alpha = number_field(j, "alpha", shape_ok);
  const auto beta = number_field(j, "beta", shape_ok);
  const auto gamma = number_field(j, "gamma", shape_ok);
  const auto r2 = number_field(j, "r2", shape_ok);
  fit.n_peak = number_field(j, "n_peak", shape_ok);
  fit.peak_throughput = number_field(j, "peak_throughput", shape_ok);
  fit.points = count_field(j, "points", shape_ok);
  fit.warnings = warnings_field(j, shape_ok);
  if (!shape_ok)
    return std::nullopt;
  fit.ok = alpha && beta && gamma && r2;
  if (fit.ok) {
    fit.alpha = *alpha;
    fit.beta = *beta;
    fit.gamma = *gamma;
    fit.r2 = *r2;
  }
  return fit;
}

std::optional<AmdahlFit> amdahl_from_json(const json& j) {
  if (!j.is_object())
    return std::nullopt;
  bool shape_ok = true;
  AmdahlFit fit;
  const auto serial = number_field(j, "serial_fraction", shape_ok);
  const auto r2 = number_field(j, "r2", shape_ok);
  fit.max_speedup = number_field(j, "max_speedup", shape_ok);
  fit.points = count_field(j, "points", shape_ok);
  fit.warnings = warnings_field(j, shape_ok);
  if (!shape_ok)
    return std::nullopt;
  fit.ok = serial && r2;
  if (fit.ok) {
    fit.serial_fraction = *serial;
    fit.r2 = *r2;
  }
  return fit;
}

std::optional<RingAllReduceFit> ring_all_reduce_from_json(const json& j) {
  if (!j.is_object() || !j.contains("tier") || !j["tier"].is_string())
    return std::nullopt;
  bool shape_ok = true;
  RingAllReduceFit fit;
  fit.tier = j["tier"].get<std::string>();
  const auto alpha_us = number_field(j, "alpha_us", shape_ok);
  const auto beta = number_field(j, "beta_s_per_byte", shape_ok);
  const auto r2 = number_field(j, "r2", shape_ok);
  fit.points = count_field(j, "points", shape_ok);
  fit.warnings = warnings_field(j, shape_ok);
  if (const auto g = j.find("gpus"); g != j.end()) {
    if (!g->is_array())
      return std::nullopt;
    for (const auto& n : *g) {
      if (!n.is_number_integer())
        return std::nullopt;
      fit.gpus.push_back(n.get<int>());
    }
  }
  if (!shape_ok)
    return std::nullopt;
  fit.ok = alpha_us && beta && r2;
  if (fit.ok) {
    fit.alpha_s = *alpha_us * 1e-6;
    fit.beta_s_per_byte = *beta;
    fit.r2 = *r2;
  }
  return fit;
}

std::optional<HockneyFit> hockney_from_json(const json& j) {
  if (!j.is_object())
    return std::nullopt;
  for (const char* key : {"case", "tier"}) {
    if (!j.contains(key) || !j[key].is_string())
      return std::nullopt;
  }
  if (!j.contains("gpus") || !j["gpus"].is_number_integer())
    return std::nullopt;
  bool shape_ok = true;
  HockneyFit fit;
  fit.case_name = j["case"].get<std::string>();
  fit.tier = j["tier"].get<std::string>();
  fit.gpus = j["gpus"].get<int>();
  fit.params = j.value("params", json::object());
  if (!fit.params.is_object())
    return std::nullopt;
  const auto latency_us = number_field(j, "latency_us", shape_ok);
  const auto per_byte = number_field(j, "seconds_per_byte", shape_ok);
  const auto r2 = number_field(j, "r2", shape_ok);
  fit.min_bytes = number_field(j, "min_bytes", shape_ok).value_or(0);
  fit.max_bytes = number_field(j, "max_bytes", shape_ok).value_or(0);
  fit.points = count_field(j, "points", shape_ok);
  fit.warnings = warnings_field(j, shape_ok);
  if (!shape_ok)
    return std::nullopt;
  fit.ok = latency_us && per_byte && r2;
  if (fit.ok) {
    fit.latency_s = *latency_us * 1e-6;
    fit.seconds_per_byte = *per_byte;
    fit.r2 = *r2;
  }
  return fit;
}

StoredFits::StoredFits(const json& fits) {
  if (!fits.is_object())
    return;
  if (const auto c = fits.find("curves"); c != fits.end() && c->is_array()) {
    for (const auto& entry : *c) {
      if (!entry.is_object())
        continue;
      const auto suite = entry.find("suite");
      const auto case_name = entry.find("case");
      const auto metric = entry.find("metric");
      const auto params = entry.find("params");
      if (suite == entry.end() || case_name == entry.end() || metric == entry.end() ||
          params == entry.end() || !suite->is_string() || !case_name->is_string() ||
          !metric->is_string() || !params->is_object()) {
        continue;
      }
      if (*suite == suite_names::kCollectives)
        ++collectives_entries_;
      curves_.emplace(curve_id(*suite, *case_name, *metric, *params), &entry);
    }
  }
  if (const auto ab = fits.find("alpha_beta"); ab != fits.end() && ab->is_object()) {
    alpha_beta_ = &*ab;
  }
}

const json* StoredFits::entry_for(const Curve& curve) const {
  const auto it = curves_.find(
      curve_id(curve.key.suite, curve.key.case_name, curve.key.metric, curve.key.params));
  if (it == curves_.end() || !same_points(*it->second, curve))
    return nullptr;
  return it->second;
}

std::optional<StoredCurveModels> StoredFits::for_curve(const Curve& curve) const {
  const json* entry = entry_for(curve);
  if (!entry)
    return std::nullopt;
  StoredCurveModels models;
  if (const auto u = entry->find("usl"); u != entry->end())
    models.usl = usl_from_json(*u);
  if (const auto a = entry->find("amdahl"); a != entry->end())
    models.amdahl = amdahl_from_json(*a);
  if (!models.usl && !models.amdahl)
    return std::nullopt;
  return models;
}

std::optional<StoredFits::AlphaBeta>
StoredFits::alpha_beta(const std::vector<CurveFits>& curves) const {
  if (!alpha_beta_)
    return std::nullopt;
  std::size_t collectives = 0;
  for (const auto& fitted : curves) {
    const Curve& curve = fitted.curve;
    if (curve.key.suite != suite_names::kCollectives)
      continue;
    ++collectives;
    if (!entry_for(curve))
      return std::nullopt;
  }
  if (collectives != collectives_entries_)
    return std::nullopt;
  AlphaBeta out;
  const auto per_gpu = alpha_beta_->find("per_gpu_count");
  const auto ring = alpha_beta_->find("ring_all_reduce");
  if (per_gpu == alpha_beta_->end() || ring == alpha_beta_->end() || !per_gpu->is_array() ||
      !ring->is_array()) {
    return std::nullopt;
  }
  for (const auto& entry : *per_gpu) {
    auto fit = hockney_from_json(entry);
    if (!fit)
      return std::nullopt;
    out.per_gpu_count.push_back(std::move(*fit));
  }
  for (const auto& entry : *ring) {
    auto fit = ring_all_reduce_from_json(entry);
    if (!fit)
      return std::nullopt;
    out.ring_all_reduce.push_back(std::move(*fit));
  }
  return out;
}

} // namespace cb::report
