#pragma once
// The second pass of the pair tests: from the figures of every pair of one tier (node pairs
// across nodes), which member (node) or which link between two members is bad.
//
// A pair is suspect when it is outside the rule's tolerance against the fleet of pairs: bandwidth
// under 0.93 x the typical pair, latency over 2.1 x the lowest pair (the acceptance thresholds of
// NVIDIA ClusterKit and Microsoft SuperBench).
//
// The typical pair is the median pair, or the median over members of each member's median pair
// (the upper middle one for an even count) where that is higher because slow members pulled the
// median pair down. With k slow members of n, k(2n - k - 1)/2 of the n(n - 1)/2 pairs are slow,
// a majority from k = 0.3 n on, and the median pair alone would be a slow one that names nothing;
// a healthy member's median pair stays healthy while at most half of its partners are slow, so
// the members' median does while k <= (n - 1) / 2. The members' median is taken only when the
// members under it are slow with one another too: two leaf switches whose cross pairs are slower
// than their inside ones also lift it (the larger leaf's members take the fast level), but the
// smaller leaf is fast inside, and there the median pair stays the reference. Scattered bad links
// pull the members' median down, not up, and leave the median pair. Beyond that nothing tells a
// slow majority from a fast minority: better_members() says the tier is not uniform, so that
// qualify warns instead of passing it in silence.
//
// One slow member makes every pair it is in suspect, so a suspect pair alone cannot say which end
// is bad. Each end of a suspect pair that is not good is therefore retested against known-good
// partners (two where there are): good members are those at most half of whose pairs are suspect
// (a good member's suspect pairs are the ones it shares with bad members). A member that is not
// good and whose retests all stay outside the tolerance is named. A good member is never named (one
// slow only in retests met noise: most of its own pairs passed), so it is not retested as an end.
// A suspect pair neither of whose ends was found slow is measured again, alone when they are
// few (free of a round's congestion) and else packed into rounds of their own: still outside, the
// link between them (cable, switch port) is named; inside, it was transient and is cleared. Ends
// without any good partner (more than half the fleet suspect, or too few members) leave their
// pairs unresolved, and the record says so.
//
// Members slow with every good partner but fast with one another are not slow members: a slow
// member is slow in every pair it is in, those with other slow members too. Two leaf switches of
// 11 and 5 nodes whose cross pairs are slower than their inside ones leave the 5 slow with every
// good partner (all on the larger leaf) and fast inside their leaf: the fault, or the design, is
// the switching between the groups (an uplink, an oversubscribed fabric), and naming the 5 nodes
// would send healthy hardware back. Members that are not good are joined by first-pass pairs
// within the plain tolerance of the reference (fast) whose ends share most of their fast partners
// (one noisy pair between two small switches must not merge them); a member stays when its own
// median pair inside is fast (a slow member that one noisy pair joined is slow with the rest),
// and a group stands with two members or more, its median pair inside clearly fast (past the
// middle of the tolerance: 0.965 x the typical pair; for latency between the clean median and
// 2.1 x the lowest) and its median pair across suspect. Its members are not named; its pairs
// across are explained by the split, and the record lists the groups. A pair inside a group that
// is suspect is retested as a pair (stage 2): a bad cable between two of its members is named as
// a link. A single member alone behind its switch cannot be told from a slow one and is named.
//
// Bounded at any size: each stage runs at most kMaxRetestRounds rounds, whatever the fleet. A
// noisy fleet of 1,024 nodes can have tens of thousands of suspect pairs; measured one at a time
// they would take longer than the first pass. The retests most likely to name something go first
// (the ends with the most suspect pairs, the worst pairs), and those beyond the cap leave their
// pairs unresolved, counted in beyond_cap(). An end is retested against all its partners or not at
// all: the cap never leaves a member judged on a single retest.
//
// Pure: the case measures, this decides, so the rule is unit-tested on synthetic fleets.
#include <string>
#include <vector>

#include "links/pair_schedule.hpp"
#include "runtime/second_pass_limit.hpp"

namespace cb {

struct PairRule {
  bool lower_is_better = false; // latency: high is bad
  double factor = 0.93; // bandwidth: suspect under factor x median; latency: over factor x lowest
  std::string text;     // the rule and its source, for the record
  bool suspect(double value, double reference) const;
};
PairRule bandwidth_rule();
PairRule latency_rule();

// One figure per unordered pair of members: for a one-way test, the worse of its two directions.
struct MemberPairFigure {
  int a = 0, b = 0;
  double value = 0;
};

// The fleet figure the rule's tolerance is taken against: for bandwidth the typical pair (above),
// for latency the lowest pair. 0 without figures. Members must be in [0, members).
double pair_reference(const PairRule& rule, const std::vector<MemberPairFigure>& figures,
                      int members);

struct EndRetest {
  int member = 0;  // the end under test
  int partner = 0; // its known-good partner
};

struct PairVerdicts {
  std::vector<int> nodes;             // named members, ascending
  std::vector<MemberPair> links;      // named links
  std::vector<MemberPair> cleared;    // suspect pairs whose own retest passed
  std::vector<MemberPair> unresolved; // suspect pairs with an end lacking a good partner
  // Members slow with every good partner but fast with one another (above), each group's members
  // ascending, the groups by their first member; and the suspect pairs the split explains.
  std::vector<std::vector<int>> groups;
  std::size_t split_pairs = 0;
};

class PairNaming {
public:
  PairNaming(int members, std::vector<MemberPairFigure> figures, PairRule rule);

  double reference() const { return reference_; }
  const PairRule& rule() const { return rule_; }
  const std::vector<MemberPairFigure>& figures() const { return figures_; }
  // Indices into figures() of the suspect pairs.
  const std::vector<std::size_t>& suspects() const { return suspects_; }
  bool good(int member) const { return good_[static_cast<std::size_t>(member)]; }

  // The most rounds either stage measures, and the most pair retests measured one at a time.
  static constexpr std::size_t kMaxRetestRounds = kSecondPassMaxRoundsPerStage;
  static constexpr std::size_t kMaxAloneRetests = kMaxRetestRounds;

  // Stage 1: each distinct end of a suspect pair that is not good against up to kPartners good
  // partners (fewer where the fleet has fewer). One retest alone could be one noisy measurement; a
  // member is slow when every one of its retests is outside the tolerance.
  static constexpr std::size_t kPartners = 2;
  // In round order: end_rounds() holds, per round, indices into end_retests(), no member twice.
  const std::vector<EndRetest>& end_retests() const { return end_retests_; }
  const std::vector<std::vector<std::size_t>>& end_rounds() const { return end_rounds_; }
  // Their figures, in the order of end_retests().
  void record_end_retests(const std::vector<double>& values);
  bool end_slow(std::size_t retest) const { return end_slow_.at(retest); }
  double end_value(std::size_t retest) const { return end_values_.at(retest); }
  // After stage 1: every retest outside the tolerance (and not good by its first pass).
  bool member_slow(int member) const;
  // After stage 1: slow, and not in a group of members fast with one another (named).
  bool member_named(int member) const;

  // Stage 2 (after stage 1): suspect pairs neither of whose ends was found slow, each end good or
  // retested, worst first; pair_rounds() as end_rounds(): one pair per round when they
  // are at most kMaxAloneRetests (pair_retests_alone()), else packed.
  const std::vector<MemberPair>& pair_retests() const { return pair_retests_; }
  const std::vector<std::vector<std::size_t>>& pair_rounds() const { return pair_rounds_; }
  bool pair_retests_alone() const { return pair_alone_; }
  void record_pair_retests(const std::vector<double>& values);
  const std::vector<double>& pair_retest_values() const { return pair_values_; }

  PairVerdicts verdicts() const;

  // Retests left out by the round cap: of ends (stage 1) and of pairs (stage 2).
  struct BeyondCap {
    std::size_t end_retests = 0, pair_retests = 0;
  };
  BeyondCap beyond_cap() const { return beyond_cap_; }

  // Above this robust relative spread of the fleet's pairs (1.4826 MAD / median) the fraction
  // rule alone would name noise, so a pair must also be a robust-z outlier.
  static constexpr double kNoisyFleetSpread = 0.10;
  static constexpr double kOutlierZ = 3.5;
  bool noisy_fleet() const { return fleet_sigma_ > 0; }
  // Outside the rule's tolerance (and, in a noisy fleet, beyond kOutlierZ robust deviations).
  bool outside(double value) const;

  // The mirror of outside(), stricter because nothing retests it: pairs better than the
  // reference by more than the rule's tolerance (over reference / factor for bandwidth; latency's
  // reference is the lowest pair, so none) and beyond robust z 3.5 of the clean pairs' spread,
  // kept when they join a dense group of 3 or more members (at least half of the pairs among them
  // better): the group's members ascending, and its better pairs. A uniform tier has none; with
  // them, either a minority is faster (same-switch pairs, newer NICs) or a majority is slow,
  // which the rule cannot tell.
  std::size_t better_pairs() const { return better_pairs_; }
  const std::vector<int>& better_members() const { return better_members_; }

private:
  int members_;
  std::vector<MemberPairFigure> figures_;
  PairRule rule_;
  double reference_ = 0;
  double fleet_median_ = 0, fleet_sigma_ = 0; // set only for a noisy fleet
  double clean_median_ = 0, clean_sigma_ = 0; // of the clean pairs, whatever their spread
  std::vector<std::size_t> suspects_;
  std::size_t better_pairs_ = 0;
  std::vector<int> better_members_;
  std::vector<bool> good_;
  std::vector<EndRetest> end_retests_;
  std::vector<std::vector<std::size_t>> end_rounds_, pair_rounds_;
  bool pair_alone_ = true;
  BeyondCap beyond_cap_;
  std::vector<bool> end_slow_;
  std::vector<double> end_values_;
  std::vector<std::vector<std::size_t>> retests_of_member_; // indices into end_retests_
  std::vector<std::vector<int>> groups_;                    // after stage 1
  std::vector<int> group_of_;                               // index into groups_, or -1
  // The constructor's steps, in order.
  struct PairCounts {
    explicit PairCounts(int members)
        : pairs(static_cast<std::size_t>(members), 0), suspect(pairs) {}
    std::vector<int> pairs, suspect; // per member: its pairs, and how many of them are suspect
  };
  void measure_spread();
  void find_suspects(PairCounts& counts);
  void find_better_members();
  std::vector<int> find_good_members(const PairCounts& counts);
  // Each end's indices into end_retests_, which it fills.
  std::vector<std::vector<std::size_t>> choose_end_partners(const std::vector<int>& suspect_of,
                                                            const std::vector<int>& good_members);
  void pack_end_retests(const std::vector<std::vector<std::size_t>>& candidates_of);
  void find_groups();
  std::vector<MemberPair> pair_retests_;
  std::vector<double> pair_values_;
  bool stage1_done_ = false, stage2_done_ = false;
};

} // namespace cb
