// clusterbench run: the GPU-count sweep of the chosen families, end to end.
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <optional>

#include "cli/command.hpp"
#include "cli/run_job.hpp"
#include "core/duration.hpp"
#include "core/error.hpp"
#include "core/format.hpp"
#include "core/stats.hpp"
#include "core/units.hpp"
#include "planning/measured_link.hpp"
#include "planning/plan_text.hpp"
#include "planning/run_plan.hpp"
#include "results/results_io.hpp"
#include "runtime/backend_registry.hpp"
#include "runtime/case_list.hpp"
#include "runtime/communicator.hpp"
#include "runtime/cpu_affinity.hpp"
#include "runtime/device_choice.hpp"
#include "runtime/family.hpp"
#include "runtime/host_backend.hpp"
#include "runtime/launcher.hpp"
#include "runtime/launcher_output.hpp"
#include "runtime/launcher_watch.hpp"
#include "runtime/rank_threads.hpp"
#include "runtime/run_metadata.hpp"
#include "runtime/run_options.hpp"
#include "runtime/run_summary.hpp"
#include "runtime/sweep.hpp"
#include "runtime/watchdog.hpp"

namespace cb {
namespace {

// The registered cases this run's --suite and --cases choose.
std::vector<std::unique_ptr<BenchmarkCase>> chosen_cases(const RunConfig& config) {
  std::vector<std::unique_ptr<BenchmarkCase>> cases;
  for (auto& c : CaseRegistry::instance().create_all()) {
    if (config.wants_case(c->suite(), c->name()))
      cases.push_back(std::move(c));
  }
  return cases;
}

// Empty unless the cuda backend would have to share a GPU between ranks of this node.
std::string too_many_ranks_for_gpus(const std::string& backend_name, int ranks_on_node) {
  if (backend_name != "cuda")
    return "";
  std::string why;
  const int gpus = BackendRegistry::instance().find(backend_name)->count_devices(why);
  return too_many_ranks_for_devices(ranks_on_node, gpus, host_name());
}

// The plan of this run (harness/planning/run_plan.hpp), fitted to --budget: the same on every rank,
// as it depends only on the flags, the backend (resolved in `config`) and the layout. Throws
// InputError naming --budget when even the smallest plan does not fit.
RunPlan plan_for(const RunConfig& config, const NodeLayout& layout,
                 const std::vector<int>& counts) {
  PlanTarget target;
  target.nodes = std::max(1, layout.node_count());
  target.gpus_per_node = std::max(1, layout.ranks_on_node(0));
  target.counts = counts;
  return plan_to_budget(plan_cases_from_registry(config), config, target,
                        hardware_model_for(backend_kind_name(config.backend_in_use()),
                                           config.plan_spec, config.plan_link_bps,
                                           config.plan_link_source),
                        config.budget_s);
}

// The options as the cases see them: the backend's kind resolved (`backend`: "auto" resolved).
RunConfig with_backend(const RunConfig& config, const std::string& backend) {
  RunConfig resolved = config;
  resolved.backend_kind = backend_kind_named(backend);
  return resolved;
}

std::vector<SweepPhasePlan> sweep_plan_of(const RunPlan& plan) {
  std::vector<SweepPhasePlan> out;
  for (const auto& phase : plan.phases) {
    SweepPhasePlan p{phase.suite, phase.name, phase.gpus, {}};
    for (const auto& instance : phase.instances)
      p.instances.emplace_back(instance.index, instance.measure);
    out.push_back(std::move(p));
  }
  return out;
}

struct LaunchPlan {
  std::string backend; // "auto" resolved
  int ranks = 0;
  int devices = 0; // this node's
};

// What the launching process settles before any rank starts, so that bad input is one line and no
// job is started for it: the backend, the rank count (--np, else one per device), the GPU counts,
// one GPU per rank, and the cases' own checks (a storage directory and its free space). All the
// ranks share this machine unless `spread_over_nodes` (a hostfile; then each node checks itself).
LaunchPlan plan_launch(const RunConfig& config, bool spread_over_nodes) {
  std::string note;
  LaunchPlan plan;
  plan.backend = BackendRegistry::instance().resolve(config.backend, note);
  std::string why;
  const int devices = BackendRegistry::instance().find(plan.backend)->count_devices(why);
  plan.ranks = config.np > 0 ? config.np : devices;
  plan.devices = devices;
  if (config.gpus != "auto")
    parse_gpu_counts(config.gpus, plan.ranks);
  const int local_ranks = spread_over_nodes ? 1 : plan.ranks;
  if (const std::string problem = too_many_ranks_for_gpus(plan.backend, local_ranks);
      !problem.empty()) {
    throw InputError(problem);
  }
  std::vector<int> node_ranks(static_cast<std::size_t>(local_ranks));
  std::iota(node_ranks.begin(), node_ranks.end(), 0); // the first node's ranks
  RunConfig resolved = with_backend(config, plan.backend);
  resolve_plan_link(resolved, plan.backend); // --plan-from's file checked before any job starts
  for (const auto& c : chosen_cases(resolved))
    c->check_input(resolved, node_ranks);
  // A budget no plan meets is refused before any rank starts (on one node, where the layout is
  // known here; the ranks check again with the real layout).
  if (!spread_over_nodes) {
    const NodeLayout layout = uniform_layout(1, plan.ranks);
    plan_for(resolved, layout, sweep_counts(config.gpus, layout));
  }
  // Said once the input is known to be good, so that bad input stays one line.
  if (!note.empty() && config.backend == "auto" && plan.backend == "host")
    std::cerr << "clusterbench run: " << note << "using the host backend\n";
  return plan;
}

// Parent side: not under MPI, so start the ranks through mpirun and wait for them.
// A run cut short: what each family left unfinished (a pair test's pairs it never measured).
void say_unfinished(const std::string& results_path) {
  for (const auto& family : FamilyRegistry::instance().all()) {
    const std::string line = family->unfinished_run(results_path);
    if (!line.empty())
      std::cerr << "clusterbench run: " << line << "\n";
  }
}

int launch_ranks(const RunConfig& config, const std::vector<std::string>& args) {
  const LaunchPlan plan =
      plan_launch(config, std::getenv("OMPI_MCA_orte_default_hostfile") != nullptr);
  const std::string& backend = plan.backend;
  const int np = plan.ranks;

  // The parent decides the file and the backend, so the ranks agree with what it printed: the
  // user's own --out and --backend are replaced.
  std::vector<std::string> child_args{"run"};
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--out" || args[i] == "--backend") {
      ++i;
      continue;
    }
    if (args[i].rfind("--out=", 0) == 0 || args[i].rfind("--backend=", 0) == 0)
      continue;
    if (args[i] == "--")
      break;
    child_args.push_back(args[i]);
  }
  child_args.insert(child_args.end(), {"--out", config.out, "--backend", backend});

  const std::string mpirun = find_on_path("mpirun");
  if (mpirun.empty()) {
    if (np > 1) {
      throw InputError("--np: mpirun is not on PATH, so only one rank can run; install Open MPI "
                       "or launch with your MPI's launcher");
    }
    std::cerr << "clusterbench run: mpirun not found; running as a single rank\n";
    std::vector<std::string> cmd{self_executable()};
    cmd.insert(cmd.end(), child_args.begin(), child_args.end());
    return run_child(cmd);
  }
  // GPU ranks share a node's cores out; over a hostfile each node runs one rank per GPU.
  const int gpu_ranks_per_node = backend == "host" ? 0 : std::min(np, std::max(1, plan.devices));
  auto cmd = mpirun_command(mpirun, self_executable(), child_args, np, ::geteuid() == 0,
                            physical_core_count(), gpu_ranks_per_node);
  // Remote starts over ssh give up after 10 s instead of waiting for TCP's own timeout, and never
  // stop at a password prompt; an rsh agent of the user's own (or one set by their MPI
  // configuration) is left alone.
  if (!std::getenv("OMPI_MCA_plm_rsh_agent") && !std::getenv("OMPI_MCA_plm_rsh_args")) {
    cmd.insert(cmd.begin() + 3, {"--mca", "plm_rsh_args", "-o ConnectTimeout=10 -o BatchMode=yes"});
  }
  std::cerr << "clusterbench run: launching " << command_line(cmd) << "\n";
  LauncherOutput mpirun_stderr;
  bool ended_late = false;
  const int rc = run_child(cmd, &mpirun_stderr, config.timeout_s, &ended_late);
  for (const auto& line : mpirun_stderr.repeated())
    std::cerr << line << "\n";
  if (ended_late) {
    std::cerr << "clusterbench run: the results are written, but the job did not end within "
              << format_seconds(config.timeout_s)
              << " (--timeout): a rank stopped or hung on its way out; mpirun was ended\n";
    return 3;
  }
  if (rc > 3) {
    // Not one of our exit codes: mpirun itself failed, before or while starting the ranks (an
    // unreachable host in the hostfile, no daemon, a rank killed by a signal). One line with the
    // cause; Open MPI's whole message goes to a file beside the results.
    const std::string kept = config.out + ".mpirun-stderr.txt";
    std::string held;
    for (const auto& line : mpirun_stderr.held())
      held += line + "\n";
    bool written = true;
    try {
      write_text_atomic(held, kept); // by the rule of every file written: never over a device
    } catch (const Error&) {
      written = false;
    }
    const std::string cause = mpirun_stderr.cause();
    std::cerr << "clusterbench run: mpirun failed with exit code " << rc << ": "
              << (cause.empty() ? "no message (a rank may have died)" : one_line(cause))
              << (written ? "; Open MPI's full message is in " + kept : std::string()) << "\n";
    say_unfinished(config.out);
    return 3;
  }
  // A run the ranks ended themselves: they said why, so Open MPI's banners about a rank's exit
  // code add nothing then; after a good run they may carry warnings worth reading.
  const std::vector<std::string> rest =
      rc == 0 ? mpirun_stderr.held() : mpirun_stderr.held_outside_banners();
  for (const auto& line : rest)
    std::cerr << line << "\n";
  if (rc != 0)
    say_unfinished(config.out);
  return rc;
}

long peak_rss_bytes() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss * 1024L; // Linux reports KiB
}

// Rank 0's line for bad input, as main would print it, said before this rank leaves MPI. Thrown
// to main instead, it came after MPI_Finalize: the other ranks, exiting 2 from there, had mpirun
// stop rank 0 with SIGTERM first, and the line was lost (1 run in ~20 on 3 emulated nodes).
void say_bad_input(const std::string& problem) {
  std::cout.flush();
  const std::string prefix = "clusterbench run: ";
  std::cerr << prefix << one_line(problem, 299 - prefix.size()) << "\n" << std::flush;
}

// Bad input found by every rank alike: one line, from rank 0; exit 2 everywhere, once it is said.
int refuse(const Communicator& world, const std::string& problem) {
  if (world.rank() == 0)
    say_bad_input(problem);
  world.barrier();
  return 2;
}

// Rank 0 opens the results file with the run header and the plan; "" when it could, else why
// (every rank gets the answer).
std::string open_results(const Communicator& world, const RunConfig& config,
                         const std::vector<std::string>& argv, LaunchMode mode, const JobView& job,
                         const Backend& backend, const RunPlan& plan,
                         std::timed_mutex* write_lock,
                         std::unique_ptr<IncrementalResultsWriter>& writer) {
  std::string problem;
  if (world.rank() == 0) {
    try {
      writer = std::make_unique<IncrementalResultsWriter>(
          config.out,
          make_run_header(argv, job.backend_name, launch_mode_name(mode), job.layout, job.devices,
                          backend.versions(), MpiSession::library_version(), job.nics),
          write_lock);
      writer->set_run_field("plan", plan_to_json(plan));
    } catch (const Error& e) {
      problem = std::string("--out: ") + e.what();
    }
  }
  return first_problem_anywhere(world, problem);
}

// The run's first lines: who runs where, and the plan's total.
void print_run_banner(const Communicator& world, const JobView& job, const RunPlan& plan) {
  std::vector<std::string> counts;
  for (int n : job.counts)
    counts.push_back(std::to_string(n));
  const int nodes = job.layout.node_count();
  std::printf("# clusterbench run: %d ranks on %d node%s, backend %s, GPU counts %s\n",
              world.size(), nodes, nodes == 1 ? "" : "s", job.backend_name.c_str(),
              join(counts, ",").c_str());
  std::printf("# plan: %s%s\n", plan_summary(plan).c_str(), plan_budget_note(plan).c_str());
  if (nodes > 1 || plan.model.link_source.rfind("assumed", 0) != 0) // across nodes, or given
    std::printf("%s\n", plan_link_line(plan).c_str());
  std::fflush(stdout);
}

// Rank 0, after the sweep: the run's closing fields, the measured time per phase beside the plan
// and the summary lines.
void finish_results(IncrementalResultsWriter& writer, const RunConfig& config,
                    const RunPlan& plan, const SweepSummary& summary,
                    const std::vector<double>& rss, bool threads) {
  nlohmann::json rss_json = nlohmann::json::array();
  for (double v : rss)
    rss_json.push_back(static_cast<long long>(v));
  // One last version of the file, with the journal's records and the run's end.
  writer.update_run({{"finished", utc_timestamp(false)},
                     {"peak_rss_bytes", rss_json},
                     {"plan", plan_to_json(plan, summary.phase_seconds)}});
  print_measured_vs_planned(std::cout, plan, summary.phase_seconds);
  std::cout.flush();
  std::fputs(run_summary_text(summary, *std::max_element(rss.begin(), rss.end()), config.out,
                              threads)
                 .c_str(),
             stdout);
  std::fflush(stdout);
}

// Rank side, the same for every kind of rank: processes under MPI (our own launch, an external
// mpirun, or srun) or the threads of a single process.
// `write_lock`: held across each write of the results file (LauncherWatch), or null.
int run_sweep(const Communicator& world, const RunConfig& config,
              const std::vector<std::string>& argv, LaunchMode mode,
              std::timed_mutex* write_lock = nullptr) {
  const bool root = world.rank() == 0;
  // Outside the try: after a device error the job is aborted with the backend still alive, as
  // tearing it down (freeing memory, destroying communicators) can wait forever on a peer.
  std::unique_ptr<Backend> backend;
  bool sweeping = false;
  try {
    const Communicator node = world.split_shared();
    std::string note;
    const BackendInfo& info = *BackendRegistry::instance().find(
        BackendRegistry::instance().resolve(config.backend, note));
    // Every node's ranks agree who drives which GPU, each bound near its own, before any record.
    const DeviceChoice choice = choose_device(node, info, host_name());
    if (const std::string problem = first_problem_anywhere(world, choice.problem); !problem.empty())
      return refuse(world, problem);
    const JobView job = discover_job(world, node, config, choice.device, backend);
    // Rank 0 asks the families for all (a --topology file read by every rank would storm the
    // shared file system it sits on); one answer for every rank.
    const std::string mine =
        world.rank() == 0 ? families_job_problem(config, job.layout.host_of_rank) : "";
    if (const std::string problem = first_problem_anywhere(world, mine); !problem.empty())
      return refuse(world, problem);
    // Cases see the backend actually in use (auto resolved), to check their input and choose
    // their instances.
    RunConfig resolved = with_backend(config, job.backend_name);
    share_plan_link(world, resolved, job.backend_name);
    std::vector<std::unique_ptr<BenchmarkCase>> cases = chosen_cases(resolved);
    if (const std::string problem = job_input_problem(world, node, resolved, job, cases);
        !problem.empty())
      return refuse(world, problem);
    calibrate_plan_link(world, resolved, job, *backend, cases);
    // The plan, before anything is written: a budget that cannot be met is bad input.
    const RunPlan plan = plan_for(resolved, job.layout, job.counts);
    std::unique_ptr<IncrementalResultsWriter> writer;
    if (const std::string problem = open_results(world, config, argv, mode, job, *backend, plan,
                                                 write_lock, writer);
        !problem.empty())
      return refuse(world, problem);
    if (root)
      print_run_banner(world, job, plan);

    SweepRunner runner(*backend, world, resolved, job.layout, job.devices, job.counts);
    runner.set_plan(sweep_plan_of(plan));
    sweeping = true;
    const SweepSummary summary = runner.run(cases, writer.get(), root ? &std::cout : nullptr);

    // A rank stopped now (SIGSTOP, a hung node) would hold the others in the last collectives.
    Watchdog ending(config.timeout_s, world.rank());
    WatchdogScope guard(ending, "the job's end (the ranks' last figures and the results file)");
    const std::vector<double> rss = world.gather(static_cast<double>(peak_rss_bytes()));
    if (root)
      finish_results(*writer, config, plan, summary, rss, !world.is_mpi());
    return world.broadcast_int(root ? summary.exit_code() : 0);
  } catch (const RankStopped&) {
    throw; // another rank of this process failed and said so; run_threads ends the job
  } catch (const InputError& e) {
    // Validation before the sweep is reached by every rank alike: one line, from rank 0, said
    // before any rank leaves MPI (MPI_Finalize waits for every rank).
    if (!sweeping) {
      if (root)
        say_bad_input(e.what());
      return 2;
    }
    // During the sweep (the results file became unwritable, a case's own input) it may be this
    // rank's alone, and the others may be waiting for it: the job ends.
    std::fprintf(stderr, "clusterbench run: rank %d: %s\n", world.rank(), e.what());
    std::fflush(stderr);
    world.abort(2, e.what());
  } catch (const Error& e) {
    // A failure on one rank would leave the others waiting in a collective: stop the job.
    std::fprintf(stderr, "clusterbench run: rank %d: %s\n", world.rank(), e.what());
    std::fflush(stderr);
    world.abort(static_cast<int>(e.code()), e.what());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "clusterbench run: rank %d: %s\n", world.rank(), e.what());
    std::fflush(stderr);
    world.abort(3, e.what());
  }
}

// Under MPI: this process is one rank. It stops, between two writes of the results file, when its
// launcher or its parent (mpirun, its daemon, slurmstepd) dies or it is sent SIGTERM; watched from
// before MPI starts, so that a launcher gone during MPI_Init is seen too.
int run_ranks(const RunConfig& config, const std::vector<std::string>& argv, LaunchMode mode) {
  const char* launcher =
      mode == LaunchMode::self_launched ? std::getenv(kLauncherIdentityVariable) : nullptr;
  LauncherWatch watch(launcher ? launcher : "");
  // Made before the session so that it outlives it: armed through MPI_Finalize, which waits for
  // every rank, and would wait forever for a stopped one.
  std::optional<Watchdog> finalizing;
  MpiSession mpi(nullptr, nullptr);
  const Communicator world = Communicator::world();
  watch.set_rank(world.rank());
  const int code = run_sweep(world, config, argv, mode, &watch.write_lock());
  finalizing.emplace(config.timeout_s, world.rank());
  finalizing->arm("leaving MPI (MPI_Finalize)");
  if (mode == LaunchMode::self_launched && world.rank() == 0) {
    // Our launcher waits --timeout at most for the other ranks from here (run_child).
    std::fprintf(stderr, "%s\n", kJobDoneLine);
    std::fflush(stderr);
  }
  return code;
}

// --single-process: one thread per rank, each driving its own device; no mpirun, no MPI.
int run_threads(const RunConfig& config, const std::vector<std::string>& argv) {
  const LaunchPlan plan = plan_launch(config, false);
  const std::string& backend = plan.backend;
  const int ranks = plan.ranks;
  // An option that cannot run as threads of one process (collectives' --cuda-graph on several).
  for (const auto& family : FamilyRegistry::instance().all())
    family->check_threads(config, ranks);
  std::cerr << "clusterbench run: " << ranks << " rank" << (ranks == 1 ? "" : "s")
            << " as threads of one process (--single-process)\n";

  const auto& binder = BackendRegistry::instance().find(backend)->bind_thread;
  const bool gpus_chosen_later =
      static_cast<bool>(BackendRegistry::instance().find(backend)->visible_devices);
  std::vector<Communicator> worlds = Communicator::threads(ranks);
  return run_rank_threads(ranks, [&](int r) {
    name_this_thread_rank(r);
    // Bound as a launcher would bind a rank: the host's to its core. A GPU's thread is bound
    // beside the GPU its node's ranks choose for it (run_sweep).
    if (const std::string why = gpus_chosen_later ? std::string() : binder(r);
        !why.empty() && r == 0)
      std::cerr << "clusterbench run: threads left unbound: " << why << "\n";
    return run_sweep(worlds[static_cast<std::size_t>(r)], config, argv, LaunchMode::single_process);
  });
}

// The results file: --out, else results/<UTC timestamp>-<host>.json (the one place the default is
// made). `check_given` also holds a given --out to the rules of every file we write.
void settle_output_path(RunConfig& config, bool check_given) {
  const bool is_default = config.out.empty();
  if (is_default)
    config.out = default_results_path();
  if (is_default || check_given)
    check_output_path(config.out, is_default);
}

int run_main(const std::vector<std::string>& args) {
  ArgParser parser = run_argument_parser();
  if (!parser.parse(args)) {
    std::cout << parser.help() << "\n" << BackendRegistry::instance().describe();
    return 0;
  }
  RunConfig config = run_config_from(parser);
  if (parser.has("list")) {
    // A named backend is listed as it is, without its devices (what a GPU node's run would make,
    // asked from a login node); auto is what this machine would run.
    std::string note;
    if (!config.backend_kind)
      config.backend_kind =
          backend_kind_named(BackendRegistry::instance().resolve(config.backend, note));
    print_case_list(std::cout, config);
    return 0;
  }
  const LaunchMode mode = detect_launch_mode();
  if (mode == LaunchMode::slurm_step_no_mpi) {
    throw InputError("srun started this task without an MPI plugin, so each task would run alone: "
                     "use srun --mpi=pmix (as `clusterbench slurm` writes it)");
  }
  if (config.single_process) {
    if (mode != LaunchMode::needs_launch) {
      throw InputError("--single-process: this process is already a rank of " +
                       launch_mode_name(mode) +
                       "; drop the flag, or start clusterbench without a launcher");
    }
    settle_output_path(config, true);
    std::vector<std::string> argv{"clusterbench", "run"};
    argv.insert(argv.end(), args.begin(), args.end());
    return run_threads(config, argv);
  }
  if (mode == LaunchMode::needs_launch) {
    settle_output_path(config, true);
    return launch_ranks(config, args);
  }
  // A rank of a launched job checks only the default it makes: the launching process (ours, or
  // the user's sbatch script) is where a user's --out is checked.
  settle_output_path(config, false);
  std::vector<std::string> argv{"clusterbench", "run"};
  argv.insert(argv.end(), args.begin(), args.end());
  return run_ranks(config, argv, mode);
}

} // namespace

CB_REGISTER_COMMAND("run", "measure the families at increasing GPU counts", run_main);

} // namespace cb
