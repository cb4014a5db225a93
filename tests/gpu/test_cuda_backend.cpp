#include <gtest/gtest.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <numeric>
#include <thread>
#include <vector>

#include "core/error.hpp"
#include "cuda/copy_timing.hpp"
#include "cuda/cuda_backend.hpp"
#include "cuda/device_kernels.hpp"
#include "cuda/nccl_collectives.hpp"
#include "cuda/storage_to_gpu.hpp"
#include "runtime/communicator.hpp"

namespace cb::cuda {
namespace {

// Floats of device memory p (n of them, on the current device) that are not `value`.
unsigned long long floats_not_equal(const void* p, std::size_t n, double value) {
  DeviceMemory count(sizeof(unsigned long long));
  CB_CUDA(cudaMemset(count.get(), 0, sizeof(unsigned long long)));
  launch_count_not_equal(DType::f32, p, n, value, static_cast<unsigned long long*>(count.get()),
                         nullptr);
  unsigned long long wrong = 1;
  CB_CUDA(cudaMemcpy(&wrong, count.get(), sizeof wrong, cudaMemcpyDeviceToHost));
  return wrong;
}

TEST(CudaBackend, DescribesItsDevice) {
  CudaBackend backend(0);
  const auto d = backend.device();
  EXPECT_EQ(d["index"], 0);
  EXPECT_FALSE(d["name"].get<std::string>().empty());
  EXPECT_EQ(d["uuid"].get<std::string>().rfind("GPU-", 0), 0u);
  EXPECT_EQ(d["uuid"].get<std::string>().size(), 40u);
  EXPECT_FALSE(d["pci_bus_id"].get<std::string>().empty());
  EXPECT_GT(d["memory_bytes"].get<unsigned long long>(), 1ull << 30);
  EXPECT_GT(d["sm_count"].get<int>(), 0);
  const auto v = backend.versions();
  EXPECT_TRUE(v.contains("cuda"));
  EXPECT_TRUE(v.contains("driver"));
#ifdef CB_HAVE_NCCL
  EXPECT_TRUE(v.contains("nccl"));
#endif
  std::printf("device %s, versions %s, state %s\n", d.dump().c_str(), v.dump().c_str(),
              backend.state().dump().c_str());
}

TEST(CudaBackend, UploadDownloadRoundTrip) {
  CudaBackend backend(0);
  auto buffer = backend.allocate(1 << 20);
  std::vector<unsigned char> in(1 << 20), out(1 << 20);
  std::iota(in.begin(), in.end(), 0);
  backend.upload(*buffer, 0, in.data(), in.size());
  backend.download(out.data(), *buffer, 4096, 8192);
  EXPECT_EQ(std::memcmp(out.data(), in.data() + 4096, 8192), 0);
  EXPECT_THROW(backend.download(out.data(), *buffer, (1 << 20) - 1, 2), RunError);
}

TEST(CudaBackend, TimesABatchWithEventsAndKeepsTheHostRatio) {
  CudaBackend backend(0);
  auto buffer = backend.allocate(256 << 20);
  // Untimed first: the first launch of a kernel loads its module (CUDA's lazy loading).
  backend.time_batch(1, [&] {
    launch_fill_constant(DType::f32, buffer->data(), (256 << 20) / 4, 1.0, backend.stream());
  });
  const double one = backend.time_batch(1, [&] {
    launch_fill_constant(DType::f32, buffer->data(), (256 << 20) / 4, 1.0, backend.stream());
  });
  const double four = backend.time_batch(4, [&] {
    launch_fill_constant(DType::f32, buffer->data(), (256 << 20) / 4, 1.0, backend.stream());
  });
  EXPECT_GT(one, 0);
  EXPECT_GT(four, 2 * one);
  EXPECT_GT(backend.host_to_event_ratio(), 0.8); // the host clock sees at least the device time
  EXPECT_TRUE(backend.state().contains("host_to_event_ratio"));
}

TEST(CudaBackend, AWaitThatNeverFinishesTimesOutWithARunError) {
  CudaBackend backend(0);
  HostMemory flag(sizeof(int), true);
  *static_cast<volatile int*>(flag.get()) = 0;
  launch_spin_until(static_cast<volatile int*>(flag.get()), backend.stream());
  Event done;
  done.record(backend.stream());
  EXPECT_THROW(backend.wait(done.get(), 0.2), RunError);
  *static_cast<volatile int*>(flag.get()) = 1; // release the spin
  backend.synchronize();
}

TEST(CudaBackend, HeldCopiesAreTimedAndCorrect) {
  CudaBackend backend(0);
  const std::size_t bytes = 64 << 20;
  HostMemory host(bytes, true);
  DeviceMemory device(bytes);
  std::fill_n(static_cast<float*>(host.get()), bytes / 4, 2.5f);
  const std::vector<CopyStream> streams{
      {0, [&](cudaStream_t s) {
         CB_CUDA(cudaMemcpyAsync(device.get(), host.get(), bytes, cudaMemcpyHostToDevice, s));
       }}};
  const auto seconds = time_held_copies(streams, 1, 4);
  ASSERT_EQ(seconds.size(), 1u);
  const double gbps = 4.0 * bytes / seconds[0] / 1e9;
  std::printf("held pinned H2D: %.1f GB/s\n", gbps);
  EXPECT_GT(gbps, 1.0);
  EXPECT_LT(gbps, 1000.0);
  EXPECT_EQ(floats_not_equal(device.get(), bytes / 4, 2.5), 0u);
}

// One record's held streams, used for several batches: each batch is held again (the flag is
// lowered before the spins are queued), released after before_release, and timed on its own.
TEST(CudaBackend, HeldCopiesAreReusedAcrossBatches) {
  CudaBackend backend(0);
  const std::size_t bytes = 16 << 20;
  HostMemory host(bytes, true);
  DeviceMemory device(bytes);
  std::fill_n(static_cast<float*>(host.get()), bytes / 4, 3.5f);
  int releases = 0;
  HeldCopies held(
      {{0,
        [&](cudaStream_t s) {
          CB_CUDA(cudaMemcpyAsync(device.get(), host.get(), bytes, cudaMemcpyHostToDevice, s));
        }}},
      [&] { ++releases; });
  for (int batch = 1; batch <= 3; ++batch) {
    const auto seconds = held.time(1, 2);
    ASSERT_EQ(seconds.size(), 1u);
    EXPECT_GT(seconds[0], 0);
    EXPECT_EQ(releases, batch);
  }
  EXPECT_EQ(floats_not_equal(device.get(), bytes / 4, 3.5), 0u);
}

// Each release says where its timed copies ran on the host's steady clock: after the release,
// ending when the host saw the stop event, lasting no longer than the events say (the span
// aggregate of copies on every GPU at once is built from these windows).
TEST(CudaBackend, HeldCopiesSayWhereTheirCopiesRan) {
  CudaBackend backend(0);
  const std::size_t bytes = 32 << 20;
  HostMemory host(bytes, true);
  DeviceMemory device(bytes);
  HeldCopies held(
      {{0, [&](cudaStream_t s) {
          CB_CUDA(cudaMemcpyAsync(device.get(), host.get(), bytes, cudaMemcpyHostToDevice, s));
        }}});
  auto now = [] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
  };
  const double before = now();
  const auto seconds = held.time(1, 4);
  const double after = now();
  ASSERT_EQ(seconds.size(), 1u);
  ASSERT_EQ(held.last_windows().size(), 1u);
  const CopyWindow w = held.last_windows()[0];
  EXPECT_GE(w.start_s, before);
  EXPECT_LE(w.end_s, after);
  EXPECT_LT(w.start_s, w.end_s);
  EXPECT_LE(w.end_s - w.start_s, seconds[0] + 1e-9);
  // The host saw the stop event within a few milliseconds of the copies' end.
  EXPECT_GT(w.end_s - w.start_s, 0.5 * seconds[0]);
}

TEST(CudaBackend, HeldSmCopiesFinishAndAreCorrect) {
  // An SM copy kernel queued behind the spin kernel: with lazy loading (CUDA's default) a kernel
  // not loaded before the spin could wait forever for the device to go idle.
  CudaBackend backend(0);
  const std::size_t bytes = (64 << 20) + 5; // a tail the byte kernel copies
  DeviceMemory src(bytes), dst(bytes);
  launch_fill_constant(DType::f32, src.get(), bytes / 4, 4.5, nullptr);
  CB_CUDA(cudaMemset(dst.get(), 0, bytes));
  CB_CUDA(cudaDeviceSynchronize());
  const std::vector<CopyStream> streams{
      {0, [&](cudaStream_t s) { launch_sm_copy(dst.get(), src.get(), bytes, s); }}};
  const auto seconds = time_held_copies(streams, 1, 4);
  ASSERT_EQ(seconds.size(), 1u);
  std::printf("held SM device copy: %.1f GB/s (read + write)\n", 8.0 * bytes / seconds[0] / 1e9);
  EXPECT_EQ(floats_not_equal(dst.get(), bytes / 4, 4.5), 0u);
}

TEST(CudaBackend, NcclCollectivesOnOneRank) {
#ifndef CB_HAVE_NCCL
  GTEST_SKIP() << "built without NCCL";
#else
  CudaBackend backend(0);
  // One rank without MPI (a thread world of one): the GPU tests need no MPI library set up.
  std::vector<Communicator> worlds = Communicator::threads(1);
  const Communicator& world = worlds.front();
  auto comm = backend.collectives(world);
  EXPECT_EQ(comm->why_unsupported(Collective::all_reduce, DType::f32, ReduceOp::sum, false), "");
  EXPECT_NE(comm->why_unsupported(Collective::all_reduce, DType::f8e4m3, ReduceOp::sum, false), "");
  EXPECT_NE(comm->why_unsupported(Collective::alltoall, DType::f32, ReduceOp::sum, true), "");
  const std::size_t n = 1 << 20;
  auto send = backend.allocate(n * 4), recv = backend.allocate(n * 4);
  std::vector<float> in(n, 3.0f), out(n, 0.0f);
  backend.upload(*send, 0, in.data(), n * 4);
  comm->all_reduce(send->data(), recv->data(), n, DType::f32, ReduceOp::sum);
  backend.download(out.data(), *recv, 0, n * 4);
  EXPECT_EQ(out.front(), 3.0f * world.size());
  EXPECT_EQ(out.back(), 3.0f * world.size());
  comm->alltoall(send->data(), recv->data(), n / world.size(), DType::f32);
  backend.synchronize();
  // The cache hands out the same communicator for the same ranks.
  auto again = backend.collectives(world);
  again->broadcast(send->data(), recv->data(), n, DType::f32, 0);
  backend.synchronize();
#endif
}

TEST(CudaBackend, NewCommunicatorsAreMadeAndDestroyedEachTime) {
#ifndef CB_HAVE_NCCL
  GTEST_SKIP() << "built without NCCL";
#else
  // What collectives/communicator_init times: a fresh NCCL communicator each time, never the
  // cache's, destroyed with its handle; the cache's collectives still work after.
  CudaBackend backend(0);
  std::vector<Communicator> worlds = Communicator::threads(1);
  EXPECT_EQ(backend.communicator_calls(), "ncclGetUniqueId, broadcast, ncclCommInitRank");
  for (int i = 0; i < 3; ++i) {
    auto made = backend.new_communicator(worlds.front());
    EXPECT_NE(made, nullptr);
  }
  auto comm = backend.collectives(worlds.front());
  const std::size_t n = 1 << 10;
  auto send = backend.allocate(n * 4), recv = backend.allocate(n * 4);
  std::vector<float> in(n, 5.0f), out(n, 0.0f);
  backend.upload(*send, 0, in.data(), n * 4);
  comm->all_reduce(send->data(), recv->data(), n, DType::f32, ReduceOp::sum);
  backend.download(out.data(), *recv, 0, n * 4);
  EXPECT_EQ(out.back(), 5.0f);
#endif
}

TEST(CudaBackend, GraphTimingCallsBeforeLaunchOnceAndDelivers) {
#ifndef CB_HAVE_NCCL
  GTEST_SKIP() << "built without NCCL";
#else
  CudaBackend backend(0);
  std::vector<Communicator> worlds = Communicator::threads(1);
  auto comm = backend.collectives(worlds.front());
  const std::size_t n = 1 << 16;
  auto send = backend.allocate(n * 4), recv = backend.allocate(n * 4);
  std::vector<float> in(n, 2.0f), out(n, 0.0f);
  backend.upload(*send, 0, in.data(), n * 4);
  // One call on the stream first (NCCL's set-up outside the capture), as the collectives do.
  comm->all_reduce(send->data(), recv->data(), n, DType::f32, ReduceOp::sum);
  backend.synchronize();
  // Cleared, so that only the graph's launch can put the result there again.
  const std::vector<float> zeros(n, 0.0f);
  backend.upload(*recv, 0, zeros.data(), n * 4);
  int lined_up = 0;
  float before_launch = -1;
  const double seconds = backend.time_batch_graph(
      8, [&] { comm->all_reduce(send->data(), recv->data(), n, DType::f32, ReduceOp::sum); },
      [&] {
        ++lined_up;
        backend.download(&before_launch, *recv, (n - 1) * 4, 4); // captured, not yet run
      });
  EXPECT_EQ(lined_up, 1);
  EXPECT_EQ(before_launch, 0.0f);
  EXPECT_GT(seconds, 0);
  backend.download(out.data(), *recv, 0, n * 4);
  EXPECT_EQ(out.back(), 2.0f);
  // The pair tests' communicator is the cache's: watched by wait() like the collectives'.
  EXPECT_EQ(backend.nccl_communicator(worlds.front()), backend.nccl_communicator(worlds.front()));
#endif
}

TEST(CudaBackend, NcclSplitPerGpuCountWithThreadRanks) {
#ifndef CB_HAVE_NCCL
  GTEST_SKIP() << "built without NCCL";
#else
  // As `run --single-process` drives them: one thread and one backend per GPU, no MPI; the
  // communicators of every count split from one world communicator before use.
  std::string why;
  const int gpus = count_cuda_devices(why);
  std::vector<Communicator> worlds = Communicator::threads(gpus);
  std::vector<float> first(static_cast<std::size_t>(gpus)), last(first);
  std::vector<std::string> errors(static_cast<std::size_t>(gpus));
  {
    std::vector<std::jthread> threads;
    for (int r = 0; r < gpus; ++r) {
      threads.emplace_back([&, r] {
        try {
          const Communicator& world = worlds[static_cast<std::size_t>(r)];
          CudaBackend backend(r);
          std::vector<Communicator> groups;
          groups.push_back(world.split(r == 0 ? 0 : -1, 0)); // 1 GPU
          groups.push_back(world.split(0, r));               // every GPU
          backend.prepare_collectives(world, groups);
          const std::size_t n = 1 << 20;
          auto send = backend.allocate(n * 4), recv = backend.allocate(n * 4);
          std::vector<float> in(n, 1.0f + r), out(n, 0.0f);
          backend.upload(*send, 0, in.data(), n * 4);
          auto all = backend.collectives(groups.back());
          all->all_reduce(send->data(), recv->data(), n, DType::f32, ReduceOp::sum);
          backend.download(out.data(), *recv, 0, n * 4);
          first[static_cast<std::size_t>(r)] = out.front();
          last[static_cast<std::size_t>(r)] = out.back();
        } catch (const std::exception& e) {
          errors[static_cast<std::size_t>(r)] = e.what();
        }
      });
    }
  }
  const float want = static_cast<float>(gpus * (gpus + 1)) / 2; // sum of 1..gpus
  for (int r = 0; r < gpus; ++r) {
    EXPECT_EQ(errors[static_cast<std::size_t>(r)], "") << "rank " << r;
    EXPECT_EQ(first[static_cast<std::size_t>(r)], want) << "rank " << r;
    EXPECT_EQ(last[static_cast<std::size_t>(r)], want) << "rank " << r;
  }
#endif
}

TEST(CudaBackend, StorageReadsReachTheGpuIntact) {
  char tmpl[] = "/tmp/cb-gpu-storage-XXXXXX";
  ASSERT_NE(mkdtemp(tmpl), nullptr);
  const std::filesystem::path dir = tmpl;
  {
    CudaBackend backend(0);
    const ReadFile file = prepare_read_file((dir / "rank0.bin").string(), 64 << 20, 1);
    StorageToGpu reader(file, 1 << 20, 0, backend.stream(), false);
    const double to_host = reader.pass(false);
    const double to_gpu = reader.pass(true);
    EXPECT_GT(to_host, 0);
    EXPECT_GT(to_gpu, 0);
    EXPECT_EQ(reader.verify(), "");
    std::printf("storage 64 MiB: to host %.2f GB/s, to GPU %.2f GB/s (%s)\n",
                (64 << 20) / to_host / 1e9, (64 << 20) / to_gpu / 1e9,
                reader.direct() ? "O_DIRECT" : reader.note().c_str());
  }
  std::filesystem::remove_all(dir);
}

} // namespace
} // namespace cb::cuda
