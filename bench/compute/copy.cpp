// STREAM copy: c = a. Counts 2 x the array bytes per call.
#include "compute/stream_case.hpp"

namespace cb {

class CopyStreamCase : public StreamCase {
public:
  CopyStreamCase() : StreamCase(StreamKernel::copy) {}
};

CB_REGISTER_CASE(CopyStreamCase);

} // namespace cb
