/* The in-run reference for clusterbench's all_reduce: a bare MPI_Allreduce timing loop, the way
 * OSU and nccl-tests time it (warm-up, then a timed loop of back-to-back calls, max over ranks),
 * with nothing of clusterbench in it. ci/fidelity runs it beside `clusterbench run` in the same
 * invocation, same ranks and binding, and prints the ratios.
 *
 * usage: bare_allreduce MIN_BYTES MAX_BYTES FACTOR REPEATS
 * prints: bytes time_us algbw_gbps busbw_gbps   (median over REPEATS timed loops)
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int compare(const void* a, const void* b) {
  const double x = *(const double*)a, y = *(const double*)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc != 5) {
    if (rank == 0)
      fprintf(stderr, "usage: bare_allreduce MIN_BYTES MAX_BYTES FACTOR REPEATS\n");
    MPI_Finalize();
    return 2;
  }
  const long min_bytes = atol(argv[1]), max_bytes = atol(argv[2]);
  const int factor = atoi(argv[3]), repeats = atoi(argv[4]);
  float* send = malloc((size_t)max_bytes);
  float* recv = malloc((size_t)max_bytes);
  memset(send, 1, (size_t)max_bytes);
  memset(recv, 0, (size_t)max_bytes);
  double* samples = malloc(sizeof(double) * (size_t)repeats);
  for (long bytes = min_bytes; bytes <= max_bytes; bytes *= factor) {
    const int count = (int)(bytes / sizeof(float)) > 0 ? (int)(bytes / sizeof(float)) : 1;
    /* Warm-up, then size the loop to about 2 ms like clusterbench's batches. */
    for (int i = 0; i < 5; ++i)
      MPI_Allreduce(send, recv, count, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    double t = MPI_Wtime();
    MPI_Allreduce(send, recv, count, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
    t = MPI_Wtime() - t;
    MPI_Allreduce(MPI_IN_PLACE, &t, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    int iters = 1;
    while (iters < (1 << 20) && t * iters < 0.002)
      iters *= 2;
    MPI_Bcast(&iters, 1, MPI_INT, 0, MPI_COMM_WORLD);
    for (int r = 0; r < repeats; ++r) {
      MPI_Barrier(MPI_COMM_WORLD);
      double start = MPI_Wtime();
      for (int i = 0; i < iters; ++i) {
        MPI_Allreduce(send, recv, count, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
      }
      double per_op = (MPI_Wtime() - start) / iters;
      MPI_Allreduce(MPI_IN_PLACE, &per_op, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
      samples[r] = per_op;
    }
    qsort(samples, (size_t)repeats, sizeof(double), compare);
    const double median = repeats % 2 ? samples[repeats / 2]
                                      : 0.5 * (samples[repeats / 2 - 1] + samples[repeats / 2]);
    const double real_bytes = (double)count * sizeof(float);
    const double algbw = real_bytes / median / 1e9;
    if (rank == 0) {
      printf("%ld %.3f %.4f %.4f\n", (long)real_bytes, median * 1e6, algbw,
             algbw * 2.0 * (size - 1) / size);
      fflush(stdout);
    }
  }
  free(samples);
  free(send);
  free(recv);
  MPI_Finalize();
  return 0;
}
