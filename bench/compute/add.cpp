// STREAM add: c = a + b. Counts 3 x the array bytes per call.
#include "compute/stream_case.hpp"

namespace cb {

class AddStreamCase : public StreamCase {
public:
  AddStreamCase() : StreamCase(StreamKernel::add) {}
};

CB_REGISTER_CASE(AddStreamCase);

} // namespace cb
