// STREAM triad: a = b + q * c. Counts 3 x the array bytes per call.
#include "compute/stream_case.hpp"

namespace cb {

class TriadStreamCase : public StreamCase {
public:
  TriadStreamCase() : StreamCase(StreamKernel::triad) {}
};

CB_REGISTER_CASE(TriadStreamCase);

} // namespace cb
