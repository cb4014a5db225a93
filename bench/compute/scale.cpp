// STREAM scale: b = q * c. Counts 2 x the array bytes per call.
#include "compute/stream_case.hpp"

namespace cb {

class ScaleStreamCase : public StreamCase {
public:
  ScaleStreamCase() : StreamCase(StreamKernel::scale) {}
};

CB_REGISTER_CASE(ScaleStreamCase);

} // namespace cb
