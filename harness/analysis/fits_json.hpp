#pragma once
// The fits section of a results file (written by `fit`, read by plots and reports):
//   { "curves": [ { suite, case, params, metric, tier_info, gpus, nodes, values, efficiency,
//                   efficiency_base_gpus, warnings,
//                   usl: {method, alpha, beta, gamma, n_peak, peak_throughput, r2, points,
//                   warnings}, usl_linearised: {...}, amdahl: {serial_fraction, max_speedup, r2,
//                   points, warnings} } ],
//     "alpha_beta": { "per_gpu_count": [ {case, params, gpus, tier, latency_us, seconds_per_byte,
//                                         bandwidth_gbps, r2, points, min_bytes, max_bytes,
//                                         warnings} ],
//                     "ring_all_reduce": [ {tier, alpha_us, beta_s_per_byte, bandwidth_gbps, r2,
//                                           points, gpus, warnings} ] } }
// Figures that could not be fitted are null, and the warnings say why.
#include <nlohmann/json.hpp>

#include "analysis/scaling_fits.hpp"

namespace cb {

nlohmann::json usl_to_json(const UslFit& fit);
nlohmann::json amdahl_to_json(const AmdahlFit& fit);
nlohmann::json hockney_to_json(const HockneyFit& fit);
nlohmann::json ring_all_reduce_to_json(const RingAllReduceFit& fit);
nlohmann::json curve_fits_to_json(const CurveFits& fits);
nlohmann::json scaling_analysis_to_json(const ScalingAnalysis& analysis);

// Replaces fits.curves and fits.alpha_beta; other keys of the fits section are kept.
void store_fits(ResultsFile& results, const ScalingAnalysis& analysis);

} // namespace cb
