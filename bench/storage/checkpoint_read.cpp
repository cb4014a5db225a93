// checkpoint_read: storage/checkpoint_case.hpp.
#include "storage/checkpoint_case.hpp"

namespace cb {

class CheckpointReadCase : public CheckpointCase {
public:
  CheckpointReadCase() : CheckpointCase(CheckpointStep::read) {}
};

CB_REGISTER_CASE(CheckpointReadCase);

} // namespace cb
