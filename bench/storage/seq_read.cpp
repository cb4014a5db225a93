// seq_read: each rank reads its own file front to back in blocks of --block-sizes.
#include "storage/storage_case.hpp"

namespace cb {

class SeqReadCase : public StorageReadCase {
public:
  SeqReadCase() : StorageReadCase(false) {}
};

CB_REGISTER_CASE(SeqReadCase);

} // namespace cb
