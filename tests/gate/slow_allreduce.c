/* A planted slowdown for the regression gate's own tests (ci/gate-noise, gate_test.sh): preloaded
 * into clusterbench (LD_PRELOAD), every MPI_Allreduce spins after it returns for FACTOR times the
 * shortest time an all-reduce of that many bytes has taken in this process
 * (CLUSTERBENCH_SLOW_ALLREDUCE_FACTOR, default 0.5: 1.5x as long), through the MPI profiling
 * interface, so nothing else about the call changes. The shortest time, not this call's: a call's
 * time includes waiting for the other ranks' spin, and spinning in proportion to that would feed
 * back from call to call and grow without bound. Other collectives are untouched: the gate must
 * name all_reduce and nothing else. */
#include <mpi.h>
#include <stdlib.h>
#include <time.h>

enum { kSizes = 256 };

struct Shortest {
  long long bytes; /* 0: free slot */
  double seconds;
};
static struct Shortest shortest[kSizes];

static double seconds_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static double slowdown_factor(void) {
  static double factor = -1;
  if (factor < 0) {
    const char* text = getenv("CLUSTERBENCH_SLOW_ALLREDUCE_FACTOR");
    char* end = NULL;
    const double value = text ? strtod(text, &end) : 0.5;
    /* A bad setting plants nothing rather than something unknown. */
    factor = text && (end == text || *end != '\0' || !(value >= 0 && value <= 100)) ? 0 : value;
  }
  return factor;
}

/* The shortest time seen for this size, this call's included; this call's when the table is
 * full (more sizes than a sweep has). */
static double shortest_for(long long bytes, double seconds) {
  for (unsigned i = 0, slot = (unsigned)(bytes * 2654435761u) % kSizes; i < kSizes;
       ++i, slot = (slot + 1) % kSizes) {
    if (shortest[slot].bytes == 0) {
      shortest[slot].bytes = bytes;
      shortest[slot].seconds = seconds;
    }
    if (shortest[slot].bytes == bytes) {
      if (seconds < shortest[slot].seconds)
        shortest[slot].seconds = seconds;
      return shortest[slot].seconds;
    }
  }
  return seconds;
}

int MPI_Allreduce(const void* send, void* receive, int count, MPI_Datatype type, MPI_Op op,
                  MPI_Comm comm) {
  const double start = seconds_now();
  const int rc = PMPI_Allreduce(send, receive, count, type, op, comm);
  const double end = seconds_now();
  int type_bytes = 0;
  PMPI_Type_size(type, &type_bytes);
  const double until =
      end + shortest_for((long long)count * type_bytes + 1, end - start) * slowdown_factor();
  while (seconds_now() < until) {
  }
  return rc;
}
