/* mpi_probe: where did my ranks land, and how fast is all-reduce between them?
 *
 * Prints, one line per rank (gathered on rank 0, in rank order):
 *   rank R host H processor P local_size L local_rank LR world W
 * where H is gethostname(), P is MPI_Get_processor_name() and L the size of
 * MPI_Comm_split_type(MPI_COMM_TYPE_SHARED) - the ranks Open MPI considers on the same node.
 * Then, for each message size, one line from rank 0:
 *   allreduce bytes B iters I time_us T algbw_gbps A busbw_gbps BB
 * T is the median over iterations of one MPI_Allreduce (double sum), each iteration's time being
 * the max over ranks; busbw = algbw * 2(n-1)/n (nccl-tests). GB = 1e9 bytes.
 *
 * usage: mpi_probe [--sizes B1,B2,...] [--min-iters N] [--min-time SECONDS]
 *   sizes in bytes with optional K/M suffix (binary); default 8,1M,2M,4M,8M.
 * Whether to run another iteration is decided on rank 0 and broadcast, so all ranks agree.
 */
#include <errno.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { kMaxSizes = 32, kMaxIters = 10000, kHostLen = 256 };

static void usage_error(int rank, const char* message) {
  if (rank == 0)
    fprintf(stderr, "mpi_probe: %s\n", message);
  MPI_Finalize();
  exit(2);
}

static long parse_size(const char* text, int* ok) {
  char* end = NULL;
  errno = 0;
  long value = strtol(text, &end, 10);
  *ok = errno == 0 && end != text && value > 0;
  if (*ok && (*end == 'K' || *end == 'k'))
    value *= 1024L, ++end;
  else if (*ok && (*end == 'M' || *end == 'm'))
    value *= 1024L * 1024L, ++end;
  *ok = *ok && *end == '\0' && value % (long)sizeof(double) == 0;
  return value;
}

static int compare_doubles(const void* a, const void* b) {
  double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}

static void report_placement(int rank, int world) {
  char host[kHostLen] = {0};
  char processor[MPI_MAX_PROCESSOR_NAME] = {0};
  int processor_len = 0;
  gethostname(host, sizeof host - 1);
  MPI_Get_processor_name(processor, &processor_len);

  MPI_Comm local;
  int local_size = 0, local_rank = 0;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &local);
  MPI_Comm_size(local, &local_size);
  MPI_Comm_rank(local, &local_rank);
  MPI_Comm_free(&local);

  char line[512];
  snprintf(line, sizeof line, "rank %d host %s processor %s local_size %d local_rank %d world %d",
           rank, host, processor, local_size, local_rank, world);
  char* all = rank == 0 ? malloc((size_t)world * sizeof line) : NULL;
  MPI_Gather(line, sizeof line, MPI_CHAR, all, sizeof line, MPI_CHAR, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    for (int r = 0; r < world; ++r)
      printf("%s\n", all + (size_t)r * sizeof line);
    fflush(stdout);
    free(all);
  }
}

static void measure_allreduce(int rank, int world, long bytes, int min_iters, double min_time) {
  size_t count = (size_t)bytes / sizeof(double);
  double* send = malloc(count * sizeof(double));
  double* recv = malloc(count * sizeof(double));
  double* times = malloc(kMaxIters * sizeof(double));
  for (size_t i = 0; i < count; ++i)
    send[i] = rank + 1.0;

  /* Warm-up (connection set-up, first touch) is not timed. */
  MPI_Allreduce(send, recv, (int)count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  double expected = world * (world + 1) / 2.0;
  if (recv[0] != expected || recv[count - 1] != expected) {
    fprintf(stderr, "mpi_probe: rank %d: allreduce of %ld bytes gave %g, expected %g\n", rank,
            bytes, recv[0], expected);
    MPI_Abort(MPI_COMM_WORLD, 3);
  }

  int iters = 0, more = 1;
  double total = 0.0;
  while (more) {
    MPI_Barrier(MPI_COMM_WORLD);
    double start = MPI_Wtime();
    MPI_Allreduce(send, recv, (int)count, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    double elapsed = MPI_Wtime() - start, slowest = 0.0;
    MPI_Allreduce(&elapsed, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    times[iters++] = slowest;
    total += slowest;
    if (rank == 0)
      more = iters < kMaxIters && (iters < min_iters || total < min_time);
    MPI_Bcast(&more, 1, MPI_INT, 0, MPI_COMM_WORLD);
  }

  if (rank == 0) {
    qsort(times, (size_t)iters, sizeof(double), compare_doubles);
    double median = iters % 2 ? times[iters / 2] : 0.5 * (times[iters / 2 - 1] + times[iters / 2]);
    double algbw = (double)bytes / median / 1e9;
    double busbw = algbw * 2.0 * (world - 1) / world;
    printf("allreduce bytes %ld iters %d time_us %.2f algbw_gbps %.6f busbw_gbps %.6f\n", bytes,
           iters, median * 1e6, algbw, busbw);
    fflush(stdout);
  }
  free(send);
  free(recv);
  free(times);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, world = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &world);

  long sizes[kMaxSizes] = {8, 1L << 20, 2L << 20, 4L << 20, 8L << 20};
  int size_count = 5, min_iters = 5;
  double min_time = 0.3;
  for (int i = 1; i < argc; ++i) {
    if (strcmp(argv[i], "--sizes") == 0 && i + 1 < argc) {
      size_count = 0;
      char* list = argv[++i];
      for (char* item = strtok(list, ","); item; item = strtok(NULL, ",")) {
        int ok = 0;
        if (size_count == kMaxSizes)
          usage_error(rank, "--sizes: at most 32 sizes");
        sizes[size_count++] = parse_size(item, &ok);
        if (!ok)
          usage_error(rank, "--sizes: each size is a positive multiple of 8 bytes (8, 1K, 4M)");
      }
      if (size_count == 0)
        usage_error(rank, "--sizes: empty list");
    } else if (strcmp(argv[i], "--min-iters") == 0 && i + 1 < argc) {
      min_iters = atoi(argv[++i]);
      if (min_iters < 1 || min_iters > kMaxIters)
        usage_error(rank, "--min-iters: 1 to 10000");
    } else if (strcmp(argv[i], "--min-time") == 0 && i + 1 < argc) {
      min_time = atof(argv[++i]);
      if (!(min_time >= 0.0 && min_time <= 60.0))
        usage_error(rank, "--min-time: 0 to 60 seconds");
    } else {
      usage_error(rank, "usage: mpi_probe [--sizes B1,B2,...] [--min-iters N] [--min-time S]");
    }
  }

  report_placement(rank, world);
  for (int s = 0; s < size_count; ++s)
    measure_allreduce(rank, world, sizes[s], min_iters, min_time);
  MPI_Finalize();
  return 0;
}
