// checkpoint_write: storage/checkpoint_case.hpp.
#include "storage/checkpoint_case.hpp"

namespace cb {

class CheckpointWriteCase : public CheckpointCase {
public:
  CheckpointWriteCase() : CheckpointCase(CheckpointStep::write) {}
};

CB_REGISTER_CASE(CheckpointWriteCase);

} // namespace cb
