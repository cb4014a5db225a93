#include "diagnosis/diagnosis.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <queue>
#include <tuple>
#include <unordered_map>

#include "core/format.hpp"
#include "diagnosis/reference.hpp"

namespace cb {

const char* component_kind_name(ComponentKind kind) {
  switch (kind) {
  case ComponentKind::node:
    return "node";
  case ComponentKind::rail:
    return "rail";
  case ComponentKind::uplink:
    return "uplink";
  }
  return "node";
}

namespace {

// Candidates are numbered nodes, then rails (host x rails + gpu), then leaves, then each node's
// egress and its ingress (CandidateLayout); each holds the indices of its figures (compressed
// rows). `judged` holds what a candidate is judged on: a node's or rail's figures inside its leaf
// when its leaf has other nodes (a crossing figure of an oversubscribed fabric is capped by the
// uplinks' fair share, which hides a node slower than healthy but faster than that share), a
// leaf's crossing figures; `touched` every figure a candidate takes part in, all of which it
// explains once named (a node's egress and ingress touch every figure of the node).
struct CandidateIndex {
  std::vector<std::size_t> start;
  std::vector<std::uint32_t> figures;
};

struct CandidateLayout {
  std::size_t nodes = 0, rails = 0, leaves = 0;
  std::size_t rail_begin() const { return nodes; }
  std::size_t leaf_begin() const { return nodes * (1 + rails); }
  std::size_t egress_begin() const { return leaf_begin() + leaves; }
  std::size_t ingress_begin() const { return egress_begin() + nodes; }
  std::size_t count() const { return ingress_begin() + nodes; }
  bool directional(std::size_t c) const { return c >= egress_begin(); }
  // The node a node, rail or direction candidate is of.
  std::size_t host_of(std::size_t c) const {
    if (c < nodes)
      return c;
    if (c < leaf_begin())
      return (c - nodes) / rails;
    return c >= ingress_begin() ? c - ingress_begin() : c - egress_begin();
  }
};

template <class Members>
CandidateIndex build_index(const std::vector<Observation>& obs, std::size_t count,
                           Members&& members) {
  CandidateIndex index;
  index.start.assign(count + 1, 0);
  for (const auto& o : obs)
    members(o, [&](std::size_t c) { ++index.start[c + 1]; });
  for (std::size_t c = 0; c < count; ++c)
    index.start[c + 1] += index.start[c];
  index.figures.resize(index.start[count]);
  std::vector<std::size_t> fill(index.start.begin(), index.start.end() - 1);
  for (std::size_t i = 0; i < obs.size(); ++i) {
    members(obs[i],
            [&](std::size_t c) { index.figures[fill[c]++] = static_cast<std::uint32_t>(i); });
  }
  return index;
}

struct Candidates {
  CandidateIndex judged, touched;
};

Candidates index_candidates(const std::vector<Observation>& obs, const CandidateLayout& layout,
                            const std::vector<int>& leaf_of_node,
                            const std::vector<int>& leaf_members) {
  const std::size_t n = layout.nodes;
  const std::size_t g = layout.rails;
  auto members = [&](bool judged) {
    return [&, judged](const Observation& o, auto&& add) {
      const int la = leaf_of_node[o.src], lb = leaf_of_node[o.dst];
      const bool one_end = o.src == o.dst;
      for (std::uint32_t end : {o.src, o.dst}) {
        // Two nodes of a leaf share every figure inside it, so those cannot tell which of them
        // is slow: they are judged on all their figures, as a node alone is.
        const bool alone = leaf_members[static_cast<std::size_t>(leaf_of_node[end])] <= 2;
        if (!judged || la == lb || alone) {
          add(end);
          if (o.rail != kNoRail && o.rail < g)
            add(n + end * g + o.rail);
          if (!judged) {
            add(layout.egress_begin() + end);
            add(layout.ingress_begin() + end);
          } else if (!one_end) {
            add((end == o.src ? layout.egress_begin() : layout.ingress_begin()) + end);
          }
        }
        if (one_end)
          break; // a figure of one end is evidence against it once
      }
      if (la != lb) {
        add(layout.leaf_begin() + static_cast<std::size_t>(la));
        add(layout.leaf_begin() + static_cast<std::size_t>(lb));
      }
    };
  };
  return {build_index(obs, layout.count(), members(true)),
          build_index(obs, layout.count(), members(false))};
}

// With three or four leaves, every uplink (but the one whose figures the others explained) slow
// by the same factor is the fabric's oversubscription, or all of them alike: a note, not culprits.
void explain_uniform_crossing(Diagnosis& diagnosis, int leaves) {
  if (leaves < 3 || leaves >= static_cast<int>(kVouchingLeaves))
    return;
  double low = 1, high = 0;
  int uplinks = 0;
  for (const auto& c : diagnosis.culprits) {
    if (c.kind != ComponentKind::uplink)
      continue;
    ++uplinks;
    low = std::min(low, c.factor);
    high = std::max(high, c.factor);
  }
  if (uplinks < leaves - 1 || high > low * 1.1)
    return;
  diagnosis.culprits.erase(
      std::remove_if(diagnosis.culprits.begin(), diagnosis.culprits.end(),
                     [](const Culprit& c) { return c.kind == ComponentKind::uplink; }),
      diagnosis.culprits.end());
  diagnosis.notes.push_back("every leaf's crossing figures are " + format_ratio(low) +
                            " x the inside ones alike: an oversubscribed fabric, or every uplink "
                            "slow; nothing is named for them");
}

// What is left: node pairs slow on most of their unexplained figures, and on at least
// kMinPatternFigures of them, which no node, rail or uplink explains (a bad cable between two
// healthy nodes). Noise leaves single slow figures scattered over the fleet, not a pair slow on
// four: at 0.3 % of figures beyond the cut, four of a pair's sixteen is about 1e-7 per pair.
constexpr int kMinPatternFigures = 4;

// Names for notes: the settings' names where given, else indices.
std::string host_text(const DiagnosisSettings& settings, std::size_t host) {
  return host < settings.host_names.size() ? settings.host_names[host] : std::to_string(host);
}
std::string leaf_text(const DiagnosisSettings& settings, std::size_t leaf) {
  return leaf < settings.leaf_names.size() ? settings.leaf_names[leaf] : std::to_string(leaf);
}

// Per observation: the cut beyond which it is slow (its source's).
struct SlowCuts {
  std::vector<double> by_source;
  double of(const Observation& o) const {
    return o.source < by_source.size() ? by_source[o.source] : by_source.front();
  }
};

void note_unexplained_pairs(const std::vector<Observation>& observations,
                            const std::vector<float>& lr, const std::vector<char>& explained,
                            const SlowCuts& cuts, const DiagnosisSettings& settings,
                            Diagnosis& diagnosis) {
  diagnosis.unexplained_slow_by_source.assign(cuts.by_source.size(), 0);
  diagnosis.slowest_unexplained_by_source.assign(cuts.by_source.size(), -1);
  std::unordered_map<std::uint64_t, std::pair<int, int>> by_pair; // slow, all
  for (std::size_t i = 0; i < observations.size(); ++i) {
    if (explained[i])
      continue;
    const auto& o = observations[i];
    const bool slow = lr[i] < -cuts.of(o);
    if (slow) {
      ++diagnosis.unexplained_slow;
      const std::size_t s = o.source < cuts.by_source.size() ? o.source : 0;
      ++diagnosis.unexplained_slow_by_source[s];
      long long& slowest = diagnosis.slowest_unexplained_by_source[s];
      if (slowest < 0 || lr[i] < lr[static_cast<std::size_t>(slowest)])
        slowest = static_cast<long long>(i);
    }
    if (o.src == o.dst)
      continue; // a figure of one end is no pair
    const std::uint64_t key =
        (static_cast<std::uint64_t>(std::min(o.src, o.dst)) << 32) | std::max(o.src, o.dst);
    auto& [slow_figures, all] = by_pair[key];
    ++all;
    slow_figures += slow ? 1 : 0;
  }
  std::size_t pairs = 0;
  std::uint64_t first = 0;
  for (const auto& [key, counts] : by_pair) {
    if (counts.first >= kMinPatternFigures && 2 * counts.first > counts.second) {
      if (pairs++ == 0 || key < first)
        first = key;
    }
  }
  if (pairs == 0)
    return;
  diagnosis.notes.push_back(std::to_string(pairs) +
                            " node pair(s) slow on most of their figures that no node, rail "
                            "or uplink explains (the first: hosts " +
                            host_text(settings, first >> 32) + " and " +
                            host_text(settings, first & 0xffffffffu) +
                            "): a pattern no single fault explains, such as a "
                            "bad cable between two nodes; nothing is named for them");
}

// Candidate c, as CandidateLayout numbers them, as a culprit.
Culprit component(std::size_t c, const CandidateLayout& layout) {
  Culprit culprit;
  if (c < layout.rail_begin()) {
    culprit.kind = ComponentKind::node;
    culprit.host = static_cast<int>(c);
  } else if (c < layout.leaf_begin()) {
    culprit.kind = ComponentKind::rail;
    culprit.host = static_cast<int>(layout.host_of(c));
    culprit.gpu = static_cast<int>((c - layout.rail_begin()) % layout.rails);
  } else if (c < layout.egress_begin()) {
    culprit.kind = ComponentKind::uplink;
    culprit.leaf = static_cast<int>(c - layout.leaf_begin());
  } else {
    culprit.kind = ComponentKind::node;
    culprit.host = static_cast<int>(layout.host_of(c));
    culprit.direction = c >= layout.ingress_begin() ? Direction::ingress : Direction::egress;
  }
  return culprit;
}

// A leaf whose every crossing figure is with leaves whose uplinks are named met no healthy leaf:
// its figures were explained by its partners, so its own uplink was never tested (the screen
// pairs a leaf only with its near neighbours, so five adjacent slow uplinks hide the middle one).
void note_untested_uplinks(const std::vector<Observation>& observations,
                           const std::vector<int>& leaf_of_node, int leaves,
                           const DiagnosisSettings& settings, Diagnosis& diagnosis) {
  // Without a topology the groups are the screen's, already told apart by its notes.
  if (leaves < 3 || !settings.topology_known)
    return;
  std::vector<char> named(static_cast<std::size_t>(leaves), 0);
  for (const auto& c : diagnosis.culprits) {
    if (c.kind == ComponentKind::uplink)
      named[static_cast<std::size_t>(c.leaf)] = 1;
  }
  // Per leaf: 0 no crossing figure, 1 only with named leaves, 2 with a healthy one too.
  std::vector<char> met(static_cast<std::size_t>(leaves), 0);
  for (const auto& o : observations) {
    const auto a = static_cast<std::size_t>(leaf_of_node[o.src]);
    const auto b = static_cast<std::size_t>(leaf_of_node[o.dst]);
    if (a == b)
      continue;
    met[a] = std::max<char>(met[a], named[b] ? 1 : 2);
    met[b] = std::max<char>(met[b], named[a] ? 1 : 2);
  }
  for (int leaf = 0; leaf < leaves; ++leaf) {
    const auto l = static_cast<std::size_t>(leaf);
    if (named[l] || met[l] != 1)
      continue;
    diagnosis.notes.push_back("leaf " + leaf_text(settings, l) +
                              " met only leaves whose uplinks are named: its own uplink was not "
                              "tested against a healthy leaf, and may be slow too");
  }
}

struct Score {
  int figures = 0; // unexplained, over every source
  int slow = 0;
  double median = 0;
  bool candidate = false;
};

// The greedy set cover over the candidates (see diagnosis.hpp), one object per diagnosis.
class SetCover {
public:
  SetCover(const std::vector<Observation>& observations, const std::vector<EvidenceSource>& sources,
           const NormalisedSources& normal, const CandidateLayout& layout,
           const std::vector<int>& leaf_of_node, const std::vector<int>& leaf_members,
           const DiagnosisSettings& settings, Diagnosis& diagnosis)
      : obs_(observations), sources_(sources), lr_(normal.log_ratio),
        sigma_(normal.sigma_by_source), layout_(layout), leaf_members_(leaf_members),
        settings_(settings), diagnosis_(diagnosis),
        candidates_(index_candidates(observations, layout, leaf_of_node, leaf_members)),
        explained_(observations.size(), 0) {
    tolerance_ = -std::log(settings.tolerance);
    // A figure is slow when beyond the tolerance and three standard deviations of one figure.
    for (double sigma : sigma_)
      cuts_.by_source.push_back(std::max(tolerance_, 3 * sigma));
    // Bonferroni over every component judged on every source's figures.
    const auto judged =
        static_cast<double>(layout.count() * std::max<std::size_t>(sigma_.size(), 1));
    z_ = diagnosis.z = upper_normal_quantile(settings.alpha / judged);
    diagnosis.sigma = *std::max_element(sigma_.begin(), sigma_.end());
  }

  void run();
  const SlowCuts& cuts() const { return cuts_; }
  const std::vector<char>& explained() const { return explained_; }

private:
  int weight_of(const Observation& o) const {
    return o.source < sources_.size() ? std::max(1, sources_[o.source].weight) : 1;
  }
  bool slow(std::uint32_t i) const { return lr_[i] < -cuts_.of(obs_[i]); }

  // A component is judged on each source's figures apart (a node slow in one measurement and
  // healthy in another is slow: its median over both would hide it), and is a candidate when
  // one source convicts it; it is scored by all its slow figures. The figures of a source are
  // contiguous in the observations (each measurement appends its own), so they come in runs.
  Score score(std::size_t c) {
    const CandidateIndex& index = candidates_.judged;
    Score s;
    std::size_t k = index.start[c];
    const std::size_t end = index.start[c + 1];
    while (k < end) {
      const std::uint16_t source = obs_[index.figures[k]].source;
      scratch_.clear();
      int slow_figures = 0, weight = 0, slow_weight = 0;
      for (; k < end && obs_[index.figures[k]].source == source; ++k) {
        const std::uint32_t i = index.figures[k];
        // A culprit explains the slow figures it takes part in; a fast one stays evidence that
        // its other end is healthy. Dropped too, it would leave a biased remainder: a node slow
        // with two of five partners, one of them a culprit, would be judged slow with two of
        // three. Only slow figures leave, so a score still only falls as figures are explained.
        if (explained_[i] && slow(i))
          continue;
        scratch_.push_back(lr_[i]);
        slow_figures += slow(i) ? 1 : 0;
        weight += weight_of(obs_[i]);
        slow_weight += slow(i) ? weight_of(obs_[i]) : 0;
      }
      s.slow += slow_figures;
      s.figures += static_cast<int>(scratch_.size());
      // It takes kMinEvidence slow figures to convict, not kMinEvidence figures of which some are
      // slow: a part judged on three figures, one of them at the typical rate, is not what slows
      // the other two (a faulty sender slows all it sends). On the emulated cluster a healthy
      // sender was named on two slow figures of three, 0.83 x typical, where transfers are
      // CPU-bound and their noise wider than the pooled sigma says.
      if (weight < kMinEvidence || slow_weight < kMinEvidence || scratch_.empty())
        continue;
      const auto n = static_cast<double>(scratch_.size());
      const double median = median_of(scratch_);
      // The median's standard error: 1.2533 sigma / sqrt(n), over the figures (not their
      // weight: a figure's samples settle it, not how it compares with its peers).
      const double sigma = source < sigma_.size() ? sigma_[source] : sigma_.front();
      const double needed = std::max(tolerance_, z_ * 1.2533 * sigma / std::sqrt(n));
      if (median < -needed && (!s.candidate || median < s.median)) {
        s.candidate = true;
        s.median = median;
      }
    }
    return s;
  }

  // Of equal candidates: a node before its direction before its rail (one GPU), the smaller
  // leaf's uplink before the larger's (two leaves' crossing figures cannot tell them apart).
  int tie_break(std::size_t c) const {
    if (c >= layout_.leaf_begin() && c < layout_.egress_begin())
      return -leaf_members_[c - layout_.leaf_begin()];
    return c < layout_.rail_begin() ? 2 : layout_.directional(c) ? 1 : 0;
  }

  // The candidate on the other end of figure o for candidate c: the other node, or the other
  // node's opposite direction.
  std::size_t partner_of(std::size_t c, const Observation& o) const {
    if (c >= layout_.ingress_begin())
      return layout_.egress_begin() + o.src;
    if (c >= layout_.egress_begin())
      return layout_.ingress_begin() + o.dst;
    return o.src == c ? o.dst : o.src;
  }

  bool undecidable_pair(std::size_t c, int slow_figures);
  void name(std::size_t c, const Score& s);

  const std::vector<Observation>& obs_;
  const std::vector<EvidenceSource>& sources_;
  const std::vector<float>& lr_;
  const std::vector<double>& sigma_;
  const CandidateLayout& layout_;
  const std::vector<int>& leaf_members_;
  const DiagnosisSettings& settings_;
  Diagnosis& diagnosis_;
  Candidates candidates_;
  std::vector<char> explained_;
  std::vector<double> scratch_;
  SlowCuts cuts_;
  double tolerance_ = 0, z_ = 0;
};

// A node (or direction) whose slow figures are all with one partner, who is as slow on the same
// figures, cannot be told from it: naming either (by index) would convict a healthy node half the
// time. The figures between them are explained and a note names both.
bool SetCover::undecidable_pair(std::size_t c, int slow_figures) {
  const CandidateIndex& index = candidates_.judged;
  const std::size_t none = layout_.count();
  std::size_t partner = none;
  for (std::size_t k = index.start[c]; k < index.start[c + 1]; ++k) {
    const std::uint32_t i = index.figures[k];
    if (explained_[i] || !slow(i) || obs_[i].src == obs_[i].dst)
      continue;
    const std::size_t other = partner_of(c, obs_[i]);
    if (partner != none && partner != other)
      return false;
    partner = other;
  }
  if (partner == none)
    return false;
  const Score p = score(partner);
  if (!p.candidate || p.slow != slow_figures)
    return false;
  const std::size_t host = layout_.host_of(c), partner_host = layout_.host_of(partner);
  const CandidateIndex& touched = candidates_.touched;
  for (std::size_t k = touched.start[host]; k < touched.start[host + 1]; ++k) {
    const auto& o = obs_[touched.figures[k]];
    if (o.src == partner_host || o.dst == partner_host)
      explained_[touched.figures[k]] = 1;
  }
  diagnosis_.notes.push_back(
      "hosts " + host_text(settings_, std::min(host, partner_host)) + " and " +
      host_text(settings_, std::max(host, partner_host)) + " are slow on " +
      std::to_string(slow_figures) +
      " figures, all between the two of them: either node, or the link between them; nothing is "
      "named for them");
  return true;
}

void SetCover::name(std::size_t c, const Score& s) {
  Culprit culprit = component(c, layout_);
  culprit.factor = std::exp(s.median);
  culprit.figures = s.figures;
  // Every slow figure it takes part in is explained (score() keeps the fast ones as evidence for
  // their other end): the receiver of a slow sender's hop, the rails
  // of a slow node and the nodes behind a slow uplink are not named for them. What is left of
  // a component after a culprit took its share would be a biased remainder (its slowest tail),
  // so a second fault on the same figures (a slow rail of a slow node) is not named; one with
  // figures of its own (a slow node behind a slow uplink: its figures inside the leaf) is.
  std::vector<std::pair<float, std::uint32_t>> shown_figures;
  const CandidateIndex& touched = candidates_.touched;
  for (std::size_t k = touched.start[c]; k < touched.start[c + 1]; ++k) {
    const std::uint32_t i = touched.figures[k];
    if (explained_[i])
      continue;
    explained_[i] = 1;
    if (slow(i)) {
      ++culprit.slow_figures;
      shown_figures.emplace_back(lr_[i], i);
    }
  }
  std::sort(shown_figures.begin(), shown_figures.end());
  for (std::size_t k = 0; k < shown_figures.size() && k < 8; ++k)
    culprit.evidence.push_back(shown_figures[k].second);
  if (culprit.kind == ComponentKind::uplink && !settings_.topology_known) {
    diagnosis_.notes.push_back(
        "screen group " + leaf_text(settings_, static_cast<std::size_t>(culprit.leaf)) +
        " is slow with every node outside it and fast inside: the switching between it and the "
        "rest, not its nodes (give --topology to name the switch)");
  } else {
    diagnosis_.culprits.push_back(std::move(culprit));
  }
}

void SetCover::run() {
  // Lazy greedy over (slow figures explained, tie break, candidate). Scores only fall as figures
  // are explained, so a candidate re-scored and still on top is the best.
  using Entry = std::tuple<int, int, std::size_t>;
  std::priority_queue<Entry> queue;
  for (std::size_t c = 0; c < layout_.count(); ++c) {
    const Score s = score(c);
    if (s.candidate)
      queue.emplace(s.slow, tie_break(c), c);
  }
  while (!queue.empty()) {
    std::size_t c = std::get<2>(queue.top());
    queue.pop();
    Score s = score(c);
    if (!s.candidate)
      continue;
    if (!queue.empty() && Entry(s.slow, tie_break(c), c) < queue.top()) {
      queue.emplace(s.slow, tie_break(c), c);
      continue;
    }
    // A node is named both ways only when both of its directions are slow on their own: a node
    // slow in what it sends, among whose received figures a few are slow (from slow senders, a
    // slow rail, noise), explains more slow figures as a node, yet is its egress.
    if (c < layout_.rail_begin()) {
      const bool egress = score(layout_.egress_begin() + c).candidate;
      const bool ingress = score(layout_.ingress_begin() + c).candidate;
      if (egress != ingress) {
        c = (egress ? layout_.egress_begin() : layout_.ingress_begin()) + c;
        s = score(c);
      }
    }
    const bool node_like = c < layout_.rail_begin() || layout_.directional(c);
    if (node_like && undecidable_pair(c, s.slow))
      continue;
    name(c, s);
  }
}

} // namespace

const char* direction_name(Direction direction) {
  switch (direction) {
  case Direction::egress:
    return "egress";
  case Direction::ingress:
    return "ingress";
  case Direction::both:
    break;
  }
  return "both";
}

Diagnosis diagnose(const std::vector<Observation>& observations, int nodes, int rails,
                   const std::vector<int>& leaf_of_node, const DiagnosisSettings& settings) {
  return diagnose(observations, {EvidenceSource{}}, nodes, rails, leaf_of_node, settings);
}

Diagnosis diagnose(const std::vector<Observation>& observations,
                   const std::vector<EvidenceSource>& sources, int nodes, int rails,
                   const std::vector<int>& leaf_of_node, const DiagnosisSettings& settings) {
  Diagnosis diagnosis;
  diagnosis.figures = observations.size();
  if (observations.empty() || nodes < 2)
    return diagnosis;
  const int leaves = 1 + *std::max_element(leaf_of_node.begin(), leaf_of_node.end());
  const NormalisedSources normal =
      normalise_by_source(observations, leaf_of_node, std::max<std::size_t>(sources.size(), 1));
  std::vector<int> leaf_members(static_cast<std::size_t>(leaves), 0);
  for (int leaf : leaf_of_node)
    ++leaf_members[static_cast<std::size_t>(leaf)];
  CandidateLayout layout;
  layout.nodes = static_cast<std::size_t>(nodes);
  layout.rails = static_cast<std::size_t>(std::max(rails, 1));
  layout.leaves = static_cast<std::size_t>(leaves);
  SetCover cover(observations, sources, normal, layout, leaf_of_node, leaf_members, settings,
                 diagnosis);
  cover.run();

  explain_uniform_crossing(diagnosis, leaves);
  if (leaves == 2 && !diagnosis.culprits.empty() &&
      diagnosis.culprits.back().kind == ComponentKind::uplink) {
    diagnosis.notes.push_back("with two leaves the figures between them cannot tell which leaf's "
                              "uplink is slow: the smaller leaf's is named");
  }

  note_untested_uplinks(observations, leaf_of_node, leaves, settings, diagnosis);
  note_unexplained_pairs(observations, normal.log_ratio, cover.explained(), cover.cuts(), settings,
                         diagnosis);
  return diagnosis;
}

} // namespace cb
