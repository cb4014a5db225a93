#include "runtime/communicator.hpp"

#include <algorithm>
#include <cstring>
#include <utility>

#include "core/error.hpp"

namespace cb {

void check_mpi(int rc, const char* what) {
  if (rc == MPI_SUCCESS)
    return;
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(rc, text, &len);
  CB_RUN_ERROR(std::string(what) + " failed: " + std::string(text, static_cast<std::size_t>(len)));
}

MpiSession::MpiSession(int* argc, char*** argv) {
  int provided = 0;
  // SINGLE: only the main thread calls MPI (the watchdog thread never does). Asking for FUNNELED
  // costs Open MPI about 25 % of an 8-byte all_reduce's latency on shared memory.
  MPI_Init_thread(argc, argv, MPI_THREAD_SINGLE, &provided);
  // Errors come back as codes so they become typed exceptions with a message instead of aborts.
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
}

MpiSession::~MpiSession() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized)
    MPI_Finalize();
}

std::string MpiSession::library_version() {
  char text[MPI_MAX_LIBRARY_VERSION_STRING];
  int len = 0;
  MPI_Get_library_version(text, &len);
  std::string version(text, static_cast<std::size_t>(len));
  if (auto nl = version.find_first_of(",\n"); nl != std::string::npos)
    version.resize(nl);
  return version;
}

Communicator Communicator::world() {
  return Communicator(MPI_COMM_WORLD, false);
}

Communicator::~Communicator() {
  if (owned_ && comm_ != MPI_COMM_NULL) {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (!finalized)
      MPI_Comm_free(&comm_);
  }
}

Communicator::Communicator(Communicator&& other) noexcept
    : comm_(std::exchange(other.comm_, MPI_COMM_NULL)), owned_(std::exchange(other.owned_, false)) {
}

Communicator& Communicator::operator=(Communicator&& other) noexcept {
  if (this != &other) {
    Communicator dying(std::move(*this));
    comm_ = std::exchange(other.comm_, MPI_COMM_NULL);
    owned_ = std::exchange(other.owned_, false);
  }
  return *this;
}

int Communicator::rank() const {
  int r = 0;
  MPI_Comm_rank(comm_, &r);
  return r;
}

int Communicator::size() const {
  int s = 0;
  MPI_Comm_size(comm_, &s);
  return s;
}

Communicator Communicator::split(int color, int key) const {
  MPI_Comm out = MPI_COMM_NULL;
  check_mpi(MPI_Comm_split(comm_, color < 0 ? MPI_UNDEFINED : color, key, &out), "MPI_Comm_split");
  if (out != MPI_COMM_NULL)
    MPI_Comm_set_errhandler(out, MPI_ERRORS_RETURN);
  return Communicator(out, true);
}

Communicator Communicator::split_shared() const {
  MPI_Comm out = MPI_COMM_NULL;
  check_mpi(MPI_Comm_split_type(comm_, MPI_COMM_TYPE_SHARED, rank(), MPI_INFO_NULL, &out),
            "MPI_Comm_split_type");
  MPI_Comm_set_errhandler(out, MPI_ERRORS_RETURN);
  return Communicator(out, true);
}

void Communicator::barrier() const {
  check_mpi(MPI_Barrier(comm_), "MPI_Barrier");
}

double Communicator::max(double value) const {
  double out = 0;
  check_mpi(MPI_Allreduce(&value, &out, 1, MPI_DOUBLE, MPI_MAX, comm_), "MPI_Allreduce");
  return out;
}

double Communicator::sum(double value) const {
  double out = 0;
  check_mpi(MPI_Allreduce(&value, &out, 1, MPI_DOUBLE, MPI_SUM, comm_), "MPI_Allreduce");
  return out;
}

long long Communicator::sum(long long value) const {
  long long out = 0;
  check_mpi(MPI_Allreduce(&value, &out, 1, MPI_LONG_LONG, MPI_SUM, comm_), "MPI_Allreduce");
  return out;
}

void Communicator::broadcast(void* data, int bytes) const {
  check_mpi(MPI_Bcast(data, bytes, MPI_BYTE, 0, comm_), "MPI_Bcast");
}

int Communicator::broadcast_int(int value) const {
  broadcast(&value, sizeof value);
  return value;
}

std::vector<double> Communicator::gather(double value) const {
  std::vector<double> out(rank() == 0 ? static_cast<std::size_t>(size()) : 0);
  check_mpi(MPI_Gather(&value, 1, MPI_DOUBLE, out.data(), 1, MPI_DOUBLE, 0, comm_), "MPI_Gather");
  return out;
}

std::vector<std::string> Communicator::all_gather_string(const std::string& value) const {
  const int n = size();
  const int len = static_cast<int>(value.size());
  std::vector<int> lengths(static_cast<std::size_t>(n));
  check_mpi(MPI_Allgather(&len, 1, MPI_INT, lengths.data(), 1, MPI_INT, comm_), "MPI_Allgather");
  std::vector<int> offsets(static_cast<std::size_t>(n), 0);
  for (int i = 1; i < n; ++i)
    offsets[i] = offsets[i - 1] + lengths[i - 1];
  std::vector<char> all(static_cast<std::size_t>(offsets[n - 1] + lengths[n - 1]) + 1);
  check_mpi(MPI_Allgatherv(value.data(), len, MPI_CHAR, all.data(), lengths.data(), offsets.data(),
                           MPI_CHAR, comm_),
            "MPI_Allgatherv");
  std::vector<std::string> out;
  for (int i = 0; i < n; ++i)
    out.emplace_back(all.data() + offsets[i], static_cast<std::size_t>(lengths[i]));
  return out;
}

std::vector<int> Communicator::all_gather_int(int value) const {
  std::vector<int> out(static_cast<std::size_t>(size()));
  check_mpi(MPI_Allgather(&value, 1, MPI_INT, out.data(), 1, MPI_INT, comm_), "MPI_Allgather");
  return out;
}

} // namespace cb
