// rand_read: each rank reads every block of its own file once per pass, in a random order.
#include "storage/storage_case.hpp"

namespace cb {

class RandReadCase : public StorageReadCase {
public:
  RandReadCase() : StorageReadCase(true) {}
};

CB_REGISTER_CASE(RandReadCase);

} // namespace cb
