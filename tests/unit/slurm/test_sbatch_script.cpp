#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "core/error.hpp"
#include "slurm/sbatch_script.hpp"

using namespace cb;

namespace {

SbatchRequest gpu_request() {
  SbatchRequest request;
  request.nodes = 2;
  request.gpus_per_node = 8;
  request.output_dir = "/scratch/results";
  request.clusterbench = "/opt/clusterbench/bin/clusterbench";
  return request;
}

bool has_line(const std::string& script, const std::string& line) {
  return ("\n" + script).find("\n" + line + "\n") != std::string::npos;
}

// The InputError message for a request, or "" when it is accepted.
std::string refusal(const SbatchRequest& request) {
  try {
    render_sbatch_script(request);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

} // namespace

// The whole script, golden: each task gets one GPU of its own near its cores (srun
// --gpu-bind=closest showed a task all four GPUs of its socket, and srun's cyclic distribution put
// tasks 0, 2, 4, 6 on one socket) and the node's CPUs per GPU (one CPU left NCCL's proxy thread,
// the loader threads and the event polling on one core).
TEST(SbatchScript, GpuScriptGolden) {
  EXPECT_EQ(render_sbatch_script(gpu_request()),
            "#!/bin/bash\n"
            "# clusterbench on 2 node(s) x 8 GPU(s), written by `clusterbench slurm`. Submit with: "
            "sbatch <this file>\n"
            "#SBATCH --job-name=clusterbench\n"
            "#SBATCH --nodes=2\n"
            "#SBATCH --ntasks-per-node=8\n"
            "#SBATCH --gpus-per-node=8\n"
            "#SBATCH --exclusive\n"
            "#SBATCH --output=/scratch/results/clusterbench-%j.out\n"
            "set -euo pipefail\n"
            "out='/scratch/results'/clusterbench-\"${SLURM_JOB_ID}\".json\n"
            "# Each task: one GPU of its own, near its CPUs, and the node's CPUs per GPU.\n"
            "cpus_per_task=$(( ${SLURM_CPUS_ON_NODE:-$(nproc)} / 8 ))\n"
            "[ \"$cpus_per_task\" -ge 1 ] || cpus_per_task=1\n"
            "srun --mpi=pmix --cpus-per-task=\"$cpus_per_task\" --distribution=block:block "
            "--gpu-bind=single:1 \\\n"
            "  '/opt/clusterbench/bin/clusterbench' run --out \"$out\"\n");
}

// The script's arithmetic, run by bash as sbatch would: 224 CPUs over 8 GPUs, and a node with
// fewer CPUs than GPUs still gives each task one.
TEST(SbatchScript, CpusPerTaskIsTheNodesCpusPerGpu) {
  const std::string script = render_sbatch_script(gpu_request());
  const auto start = script.find("cpus_per_task=");
  const auto end = script.find("srun ");
  const std::string arithmetic = script.substr(start, end - start);
  for (auto [cpus, expected] : {std::pair{224, 28}, std::pair{4, 1}, std::pair{15, 1}}) {
    const std::string command = "SLURM_CPUS_ON_NODE=" + std::to_string(cpus) + " bash -c '" +
                                arithmetic + "echo $cpus_per_task' > sbatch_cpus.txt";
    ASSERT_EQ(std::system(command.c_str()), 0) << command;
    FILE* in = std::fopen("sbatch_cpus.txt", "r");
    ASSERT_NE(in, nullptr);
    int got = 0;
    EXPECT_EQ(std::fscanf(in, "%d", &got), 1);
    std::fclose(in);
    std::remove("sbatch_cpus.txt");
    EXPECT_EQ(got, expected) << cpus << " CPUs";
  }
}

TEST(SbatchScript, OptionalDirectives) {
  SbatchRequest request = gpu_request();
  request.partition = "gpu-h100";
  request.account = "ml_team.1";
  request.time_limit = "1-02:30:00";
  request.job_name = "scaling.h100";
  request.cpus_per_task = 12;
  std::string script = render_sbatch_script(request);
  EXPECT_TRUE(has_line(script, "#SBATCH --partition=gpu-h100"));
  EXPECT_TRUE(has_line(script, "#SBATCH --account=ml_team.1"));
  EXPECT_TRUE(has_line(script, "#SBATCH --time=1-02:30:00"));
  EXPECT_TRUE(has_line(script, "#SBATCH --job-name=scaling.h100"));
  EXPECT_TRUE(has_line(script, "#SBATCH --cpus-per-task=12"));
  EXPECT_TRUE(has_line(script, "srun --mpi=pmix --cpus-per-task=12 --distribution=block:block "
                               "--gpu-bind=single:1 \\"));
  EXPECT_EQ(script.find("SLURM_CPUS_ON_NODE"), std::string::npos);
  // Optional directives are left to the cluster's defaults when not asked for.
  const std::string plain = render_sbatch_script(gpu_request());
  EXPECT_EQ(plain.find("--partition"), std::string::npos);
  EXPECT_EQ(plain.find("--account"), std::string::npos);
  EXPECT_EQ(plain.find("--time"), std::string::npos);
}

TEST(SbatchScript, HostBackendOmitsGpuRequestAndBinding) {
  SbatchRequest request = gpu_request();
  request.host_backend = true;
  request.gpus_per_node = 4;
  std::string script = render_sbatch_script(request);
  EXPECT_TRUE(has_line(script, "#SBATCH --ntasks-per-node=4"));
  EXPECT_TRUE(has_line(script, "#SBATCH --cpus-per-task=1"));
  EXPECT_EQ(script.find("--gpus-per-node"), std::string::npos);
  EXPECT_EQ(script.find("--distribution"), std::string::npos);
  EXPECT_EQ(script.find("--gpu-bind"), std::string::npos);
  EXPECT_TRUE(has_line(script, "srun --mpi=pmix --cpus-per-task=1 \\"));
  EXPECT_NE(script.find("run --out \"$out\" '--backend' 'host'\n"), std::string::npos);

  request.run_flags = {"--backend=host", "--quick"};
  script = render_sbatch_script(request);
  EXPECT_NE(script.find("run --out \"$out\" '--backend=host' '--quick'\n"), std::string::npos);
}

TEST(SbatchScript, RunFlagsAreQuotedNeverExecuted) {
  SbatchRequest request = gpu_request();
  request.run_flags = {"--suite", "collectives", "--label", "$(rm -rf /); it's `id`"};
  std::string script = render_sbatch_script(request);
  EXPECT_NE(script.find("run --out \"$out\" '--suite' 'collectives' '--label' "
                        "'$(rm -rf /); it'\\''s `id`'\n"),
            std::string::npos);
}

TEST(SbatchScript, RefusesShellMetacharactersInPartition) {
  SbatchRequest request = gpu_request();
  request.partition = "gpu;rm -rf /";
  std::string message = refusal(request);
  EXPECT_NE(message.find("--partition"), std::string::npos) << message;
  for (const char* bad : {"gpu partition", "gpu'", "$(id)", "gpu\nx", ",gpu", "gpu,,cpu"}) {
    request.partition = bad;
    EXPECT_NE(refusal(request).find("--partition"), std::string::npos) << bad;
  }
  request.partition = "gpu,cpu";
  EXPECT_EQ(refusal(request), "");
}

TEST(SbatchScript, RefusesZeroCounts) {
  SbatchRequest request = gpu_request();
  request.nodes = 0;
  EXPECT_NE(refusal(request).find("--nodes"), std::string::npos);
  request = gpu_request();
  request.gpus_per_node = 0;
  EXPECT_NE(refusal(request).find("--gpus-per-node"), std::string::npos);
  request = gpu_request();
  request.cpus_per_task = -1;
  EXPECT_NE(refusal(request).find("--cpus-per-task"), std::string::npos);
}

TEST(SbatchScript, RefusesBadNamesTimesAndDirectories) {
  SbatchRequest request = gpu_request();
  request.account = "a b";
  EXPECT_NE(refusal(request).find("--account"), std::string::npos);
  request = gpu_request();
  request.job_name = "x\n#SBATCH --nodes=99";
  EXPECT_NE(refusal(request).find("--job-name"), std::string::npos);
  request = gpu_request();
  request.time_limit = "1h";
  EXPECT_NE(refusal(request).find("--time"), std::string::npos);
  for (const char* bad : {"/tmp/a b", "/tmp/%j", "/tmp/it's", "/tmp/a\nb", ""}) {
    request = gpu_request();
    request.output_dir = bad;
    EXPECT_NE(refusal(request).find("--output-dir"), std::string::npos) << bad;
  }
  request = gpu_request();
  request.clusterbench = "bin/clusterbench";
  EXPECT_NE(refusal(request).find("absolute"), std::string::npos);
}

TEST(SbatchScript, RefusesOutInRunFlags) {
  SbatchRequest request = gpu_request();
  request.run_flags = {"--out", "x.json"};
  EXPECT_NE(refusal(request).find("--out"), std::string::npos);
  request.run_flags = {"--out=x.json"};
  EXPECT_NE(refusal(request).find("--out"), std::string::npos);
  request.run_flags = {"--output-format", "json"};
  EXPECT_EQ(refusal(request), "");
}

TEST(SbatchScript, TimeLimitForms) {
  for (const char* good :
       {"30", "30:00", "01:30:00", "2-0", "2-12:00", "2-12:00:00", "UNLIMITED", "infinite"}) {
    EXPECT_TRUE(is_slurm_time_limit(good)) << good;
  }
  for (const char* bad : {"", "1h", "1:2:3:4", "-1", "1-", ":30", "1-2-3", "30 ", "1;id"}) {
    EXPECT_FALSE(is_slurm_time_limit(bad)) << bad;
  }
}
