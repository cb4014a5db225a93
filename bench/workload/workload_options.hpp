#pragma once
// The workload family's options (runtime/family_option.hpp): what the training step reads (and
// the storage family's checkpoint size, from --model-params), what `run` parses and what
// `run --help` prints, from one declaration each.
#include <cstdint>
#include <limits>

#include "runtime/family_option.hpp"
#include "workload/transformer_shape.hpp"
#include "workload/workload_shape.hpp"

namespace cb {

// On GPUs kGpuDefaultBlocks transformer layers of hidden kGpuDefaultHidden (1.6 G parameters).
inline constexpr double kGpuDefaultParams =
    kGpuDefaultBlocks * 12.0 * kGpuDefaultHidden * kGpuDefaultHidden;

inline const FamilyOption<double> kModelParams{
    OptionDeclaration::number("model-params")
        .described("parameters of the model trained, e.g. 16M")
        .within(1)
        .defaults(kHostDefaultParams)
        .on_gpu(kGpuDefaultParams)};

inline const FamilyOption<double> kTokensPerGpu{OptionDeclaration::number("tokens-per-gpu")
                                                    .described("tokens per GPU per step")
                                                    .within(1, 1e9)
                                                    .defaults(kHostDefaultTokens)
                                                    .on_gpu(kGpuDefaultTokens)};

inline const FamilyOption<long long> kPrefetch{OptionDeclaration::integer("prefetch")
                                                   .described("batches the loader reads ahead")
                                                   .within(1, 64)
                                                   .defaults(2)};

inline const FamilyOption<std::uint64_t> kInputBytesPerStep{
    OptionDeclaration::size("input-bytes-per-step")
        .described("input each GPU reads per step from --storage-dir; 0: none")
        .within(0, static_cast<double>(std::numeric_limits<std::uint64_t>::max()))
        .defaults(std::uint64_t{0})};

} // namespace cb
