#pragma once
// The storage family's options (runtime/family_option.hpp): what its cases (and the GPU's storage
// reads, bench/cuda) read, what `run` parses and what `run --help` prints, from one declaration
// each.
#include <cstdint>
#include <limits>
#include <string>

#include "runtime/family_option.hpp"

namespace cb {

// Given or not: without it clusterbench's directory in the temp dir (storage_dir.hpp
// default_storage_dir), created and owned by clusterbench.
inline const FamilyOption<std::string> kStorageDir{
    OptionDeclaration::path("storage-dir", "DIR")
        .described("directory of clusterbench's files")
        .computed_default("$TMPDIR (else /tmp)/clusterbench-storage")};

// The GPU reads file as much as a node's GPUs can stream for a while; the host's files fit the
// page cache of a small VM twice over at --quick.
inline const FamilyOption<std::uint64_t> kFileBytes{
    OptionDeclaration::size("file-bytes")
        .described("file size per rank")
        .within(1, static_cast<double>(std::numeric_limits<std::uint64_t>::max()))
        .defaults(std::uint64_t{256} << 20, std::uint64_t{64} << 20)
        .on_gpu(std::uint64_t{1} << 30, std::uint64_t{256} << 20)};

inline const FamilyOption<bool> kBuffered{
    OptionDeclaration::flag("buffered")
        .described("read through the page cache instead of O_DIRECT")};

// Given or not: without it 14 bytes per model parameter (checkpoint_plan.hpp).
inline const FamilyOption<std::uint64_t> kCheckpointBytes{
    OptionDeclaration::size("checkpoint-bytes")
        .described("the checkpoint's bytes in all, sharded over the ranks")
        .within(1, static_cast<double>(std::numeric_limits<std::uint64_t>::max()))
        .computed_default("14 bytes per --model-params given, else per the host's default model "
                          "(bf16 weights, fp32 master copy, two Adam moments)")};

inline const FamilyOption<bool> kCleanup{
    OptionDeclaration::flag("cleanup").described("remove clusterbench's files afterwards")};

} // namespace cb
