// A rank outlives neither its launcher nor its parent (runtime/launcher_watch.hpp), and mpirun is
// told when the launcher dies (runtime/launcher.cpp). Each case runs in a child process of its
// own (a death test), as the watch ends its process.
#include <gtest/gtest.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <fstream>
#include <string>
#include <thread>

#include "runtime/launcher.hpp"
#include "runtime/launcher_watch.hpp"
#include "runtime/process_identity.hpp"

namespace cb {
namespace {

// A child that says who it is and exits at once; left unreaped (a zombie) unless `reap`.
std::string identity_of_exited_child(bool reap, pid_t* pid_out = nullptr) {
  int fds[2];
  if (::pipe(fds) != 0)
    return "";
  const pid_t pid = ::fork();
  if (pid == 0) {
    const std::string me = process_identity();
    [[maybe_unused]] const ssize_t n = ::write(fds[1], me.data(), me.size());
    ::_exit(0);
  }
  ::close(fds[1]);
  std::string identity;
  char buffer[256];
  for (ssize_t n; (n = ::read(fds[0], buffer, sizeof buffer)) > 0;)
    identity.append(buffer, static_cast<std::size_t>(n));
  ::close(fds[0]);
  if (reap) {
    int status = 0;
    ::waitpid(pid, &status, 0);
  } else {
    // The pipe closed when it exited; it is a zombie once /proc says so.
    for (int i = 0; i < 1000; ++i) {
      std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
      std::string line;
      std::getline(stat, line);
      if (line.find(") Z ") != std::string::npos)
        break;
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
  }
  if (pid_out)
    *pid_out = pid;
  return identity;
}

TEST(ProcessIdentity, ThisProcessIsAliveOnThisMachine) {
  const std::string me = process_identity();
  ASSERT_FALSE(me.empty());
  const ProcessState state = process_state(me);
  EXPECT_TRUE(state.on_this_machine);
  EXPECT_TRUE(state.alive);
}

TEST(ProcessIdentity, AReusedPidIsNotTheProcessItNamed) {
  std::string me = process_identity();
  const std::size_t last = me.rfind(' ');
  ASSERT_NE(last, std::string::npos);
  me = me.substr(0, last) + " 1" + me.substr(last + 1); // another start time
  const ProcessState state = process_state(me);
  EXPECT_TRUE(state.on_this_machine);
  EXPECT_FALSE(state.alive);
}

TEST(ProcessIdentity, AnotherMachineOrNoIdentityTellsNothing) {
  std::string me = process_identity();
  me[0] = me[0] == '0' ? '1' : '0'; // another boot id
  EXPECT_FALSE(process_state(me).on_this_machine);
  EXPECT_TRUE(process_state(me).alive);
  for (const std::string bad : {"", "x", "a b c", "a b c d e", "a b -1 2"}) {
    EXPECT_FALSE(process_state(bad).on_this_machine) << bad;
    EXPECT_TRUE(process_state(bad).alive) << bad;
  }
}

TEST(ProcessIdentity, AnExitedProcessIsGoneReapedOrNot) {
  pid_t zombie = 0;
  const std::string unreaped = identity_of_exited_child(false, &zombie);
  ASSERT_FALSE(unreaped.empty());
  EXPECT_TRUE(process_state(unreaped).on_this_machine);
  EXPECT_FALSE(process_state(unreaped).alive);
  int status = 0;
  ::waitpid(zombie, &status, 0);
  EXPECT_FALSE(process_state(unreaped).alive);
  EXPECT_FALSE(process_state(identity_of_exited_child(true)).alive);
}

// Long enough never to end a case that works; a case that does not work ends with exit 0.
void wait_to_be_stopped() {
  std::this_thread::sleep_for(std::chrono::seconds(20));
  std::exit(0);
}

TEST(LauncherWatch, SigtermStopsTheRankWithExit3) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        LauncherWatch watch("");
        std::raise(SIGTERM);
        wait_to_be_stopped();
      },
      ::testing::ExitedWithCode(3), "stopped by SIGTERM; stopping \\(exit 3\\)");
}

TEST(LauncherWatch, ALauncherGoneStopsTheRank) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  const std::string gone = identity_of_exited_child(true);
  ASSERT_FALSE(gone.empty());
  EXPECT_EXIT(
      {
        LauncherWatch watch(gone);
        wait_to_be_stopped();
      },
      ::testing::ExitedWithCode(3), "the clusterbench run that launched it is gone");
}

TEST(LauncherWatch, ALiveLauncherOrOneOnAnotherMachineDoesNot) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  std::string elsewhere = process_identity();
  elsewhere[0] = elsewhere[0] == '0' ? '1' : '0';
  for (const std::string& launcher : {process_identity(), elsewhere}) {
    EXPECT_EXIT(
        {
          LauncherWatch watch(launcher);
          std::this_thread::sleep_for(std::chrono::seconds(1)); // five looks
          std::exit(0);
        },
        ::testing::ExitedWithCode(0), "");
  }
}

// The rank's parent (mpirun) exits: the rank is handed to a subreaper (here, the death test's
// child), notices and stops; its exit code is passed on.
TEST(LauncherWatch, TheParentGoneStopsTheRank) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        ::prctl(PR_SET_CHILD_SUBREAPER, 1);
        int ready[2];
        if (::pipe(ready) != 0)
          std::exit(10);
        const pid_t parent = ::fork();
        if (parent == 0) {
          if (::fork() == 0) {
            LauncherWatch watch("");
            [[maybe_unused]] const ssize_t n = ::write(ready[1], "r", 1);
            wait_to_be_stopped();
          }
          char byte;
          [[maybe_unused]] const ssize_t n = ::read(ready[0], &byte, 1);
          ::_exit(0);
        }
        int status = 0;
        ::waitpid(parent, &status, 0);
        const pid_t rank = ::waitpid(-1, &status, 0);
        std::exit(rank > 0 && WIFEXITED(status) ? WEXITSTATUS(status) : 11);
      },
      ::testing::ExitedWithCode(3), "its parent process [0-9]+ \\(mpirun or its daemon\\) is gone");
}

// A results write in progress is finished before the rank exits.
TEST(LauncherWatch, WaitsForAWriteInProgress) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        LauncherWatch watch("");
        watch.write_lock().lock();
        std::raise(SIGTERM);
        std::this_thread::sleep_for(std::chrono::milliseconds(500)); // the watch has seen it
        const char done[] = "write finished\n";
        [[maybe_unused]] const ssize_t n = ::write(STDERR_FILENO, done, sizeof done - 1);
        watch.write_lock().unlock();
        wait_to_be_stopped();
      },
      ::testing::ExitedWithCode(3), "write finished\n.*stopped by SIGTERM");
}

// run_child gives its child a parent-death signal: kill -9 of the launcher ends mpirun. Here the
// "launcher" is a child process and its "mpirun" a shell that names itself and sleeps; the death
// test's child is their subreaper and passes on how the shell ended.
TEST(Launcher, TheChildIsSentSigtermWhenTheLauncherIsKilled) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  const std::string pid_file = ::testing::TempDir() + "cb_launcher_child_pid";
  EXPECT_EXIT(
      {
        ::prctl(PR_SET_CHILD_SUBREAPER, 1);
        std::remove(pid_file.c_str());
        const pid_t launcher = ::fork();
        if (launcher == 0) {
          ::_exit(run_child({"/bin/sh", "-c", "echo $$ > " + pid_file + "; exec sleep 20"}));
        }
        std::string child;
        for (int i = 0; i < 2000 && child.empty(); ++i) {
          std::this_thread::sleep_for(std::chrono::milliseconds(5));
          std::ifstream in(pid_file);
          std::getline(in, child);
        }
        if (child.empty())
          std::exit(10);
        ::kill(launcher, SIGKILL);
        int status = 0;
        ::waitpid(launcher, &status, 0);
        if (::waitpid(static_cast<pid_t>(std::stol(child)), &status, 0) <= 0)
          std::exit(11);
        std::exit(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM ? 0 : 12);
      },
      ::testing::ExitedWithCode(0), "");
}

} // namespace
} // namespace cb
