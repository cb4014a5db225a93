// checkpoint_stage: storage/checkpoint_case.hpp.
#include "storage/checkpoint_case.hpp"

namespace cb {

class CheckpointStageCase : public CheckpointCase {
public:
  CheckpointStageCase() : CheckpointCase(CheckpointStep::stage) {}
};

CB_REGISTER_CASE(CheckpointStageCase);

} // namespace cb
