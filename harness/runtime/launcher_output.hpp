#pragma once
// What mpirun writes on stderr while clusterbench's own launch runs, sorted so that the user
// reads clusterbench's lines as they come and Open MPI's multi-line banners only where they say
// something the ranks did not: when mpirun itself failed (a host it could not reach), the run
// ends in one line naming the cause, and the full text is kept in a file.
#include <map>
#include <string>
#include <vector>

namespace cb {

// The line rank 0 of a job we launched writes once the job's results are written and it leaves
// MPI: from then on the job has nothing left to do, and a rank that keeps it open (stopped, on a
// hung node) is waited for no longer than --timeout (run_child). Never shown.
inline constexpr const char* kJobDoneLine = "clusterbench run: rank 0: the results are written";

class LauncherOutput {
public:
  // Feeds bytes as they arrive; returns the complete lines to show at once: the ranks' own
  // (those starting "clusterbench" or "progress:"). Everything else is held. A rank's line
  // ("clusterbench CMD: rank N: ...") that another rank already said in the same words is
  // counted instead of shown: a hang or a library error on 8,192 ranks is one line and a count.
  std::vector<std::string> feed(const std::string& bytes);
  // After the child ended: the rest of a line without a newline, sorted like the others.
  std::vector<std::string> finish();

  // Lines held, banners included, in arrival order: the text to keep when mpirun failed.
  const std::vector<std::string>& held() const { return held_; }
  // After the child ended: for each rank line said by more than one rank, how many more and
  // which (the first few), e.g. "clusterbench run: rank 0's line above was said by 8191 more
  // ranks too (1, 2, 3, 4, 5, 6, 7, 8, ...)".
  std::vector<std::string> repeated() const;

  // Held lines outside Open MPI's banners (framed by lines of dashes): library warnings and the
  // like, shown at the end of a run that the ranks ended themselves.
  std::vector<std::string> held_outside_banners() const;
  // The line that best says why mpirun failed: the first held line outside a banner (ssh's own
  // "Could not resolve hostname X"), else the first line inside one; empty when nothing was held.
  std::string cause() const;
  // Whether rank 0 said kJobDoneLine.
  bool job_done() const { return job_done_; }

private:
  void take_line(const std::string& line, std::vector<std::string>& shown);

  struct Repeats {
    std::string first_line;
    long first_rank = 0;
    std::vector<long> ranks; // the first few beyond the one shown
    long more = 0;
  };
  // Repeated rank lines by their text without the rank, in the order first seen.
  std::vector<Repeats> repeats_;
  std::map<std::string, std::size_t> repeat_of_;
  std::string partial_;
  bool in_banner_ = false;
  bool job_done_ = false;
  std::vector<std::string> held_;
  std::vector<bool> held_in_banner_;
};

} // namespace cb
