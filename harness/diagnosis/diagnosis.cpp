#include "diagnosis/diagnosis.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <queue>
#include <tuple>
#include <unordered_map>

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
// egress and then each node's ingress (the node judged on one direction); each holds the
// indices of its figures (compressed rows). `judged` holds what a candidate is judged on: a
// node's or rail's figures inside its leaf when its leaf has other nodes (a crossing figure of an
// oversubscribed fabric is capped by the uplinks' fair share, which hides a node slower than
// healthy but faster than that share) when its leaf has two others or more, a leaf's crossing
// figures; `touched` every figure a
// candidate takes part in, all of which it explains once named.
struct CandidateIndex {
  std::vector<std::size_t> start;
  std::vector<std::uint32_t> figures;
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

Candidates index_candidates(const std::vector<Observation>& obs, int nodes, int rails,
                            const std::vector<int>& leaf_of_node,
                            const std::vector<int>& leaf_members) {
  const auto n = static_cast<std::size_t>(nodes);
  const auto g = static_cast<std::size_t>(rails);
  const std::size_t one_way = n * (1 + g) + leaf_members.size();
  const std::size_t count = one_way + 2 * n;
  auto members = [&](bool judged) {
    return [&, judged](const Observation& o, auto&& add) {
      const int la = leaf_of_node[o.src], lb = leaf_of_node[o.dst];
      for (std::uint32_t end : {o.src, o.dst}) {
        // Two nodes of a leaf share every figure inside it, so those cannot tell which of them
        // is slow: they are judged on all their figures, as a node alone is.
        const bool alone = leaf_members[static_cast<std::size_t>(leaf_of_node[end])] <= 2;
        if (!judged || la == lb || alone) {
          add(end);
          add(n + end * g + o.rail);
          add(one_way + (end == o.src ? 0 : n) + end);
        }
      }
      if (la != lb) {
        add(n * (1 + g) + static_cast<std::size_t>(la));
        add(n * (1 + g) + static_cast<std::size_t>(lb));
      }
    };
  };
  return {build_index(obs, count, members(true)), build_index(obs, count, members(false))};
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
  char note[200];
  std::snprintf(note, sizeof note,
                "every leaf's crossing figures are %.2f x the inside ones alike: an oversubscribed "
                "fabric, or every uplink slow; nothing is named for them",
                low);
  diagnosis.notes.push_back(note);
}

// What is left: node pairs slow on most of their unexplained figures, and on at least
// kMinPatternFigures of them, which no node, rail or uplink explains (a bad cable between two
// healthy nodes). Noise leaves single slow figures scattered over the fleet, not a pair slow on
// four: at 0.3 % of figures beyond the cut, four of a pair's sixteen is about 1e-7 per pair.
constexpr int kMinPatternFigures = 4;

void note_unexplained_pairs(const std::vector<Observation>& observations,
                            const std::vector<float>& lr, const std::vector<char>& explained,
                            double slow_cut, Diagnosis& diagnosis) {
  std::unordered_map<std::uint64_t, std::pair<int, int>> by_pair; // slow, all
  for (std::size_t i = 0; i < observations.size(); ++i) {
    if (explained[i])
      continue;
    const auto& o = observations[i];
    const std::uint64_t key =
        (static_cast<std::uint64_t>(std::min(o.src, o.dst)) << 32) | std::max(o.src, o.dst);
    auto& [slow, all] = by_pair[key];
    ++all;
    if (lr[i] < -slow_cut) {
      ++slow;
      ++diagnosis.unexplained_slow;
    }
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
                            std::to_string(first >> 32) + " and " +
                            std::to_string(first & 0xffffffffu) +
                            "): a pattern no single fault explains, such as a "
                            "bad cable between two nodes; nothing is named for them");
}

// Candidate c (nodes, rails, leaves, egresses, ingresses, as CandidateIndex numbers them) as a
// culprit.
Culprit component(std::size_t c, int nodes, int rails, int leaves) {
  const auto node_end = static_cast<std::size_t>(nodes);
  const std::size_t rail_end = node_end * (1 + static_cast<std::size_t>(rails));
  const std::size_t one_way = rail_end + static_cast<std::size_t>(leaves);
  Culprit culprit;
  if (c < node_end) {
    culprit.kind = ComponentKind::node;
    culprit.host = static_cast<int>(c);
  } else if (c >= one_way) {
    culprit.kind = ComponentKind::node;
    culprit.host = static_cast<int>((c - one_way) % node_end);
    culprit.direction =
        c - one_way < node_end ? LinkDirection::egress : LinkDirection::ingress;
  } else if (c < rail_end) {
    culprit.kind = ComponentKind::rail;
    culprit.host = static_cast<int>((c - node_end) / static_cast<std::size_t>(rails));
    culprit.gpu = static_cast<int>((c - node_end) % static_cast<std::size_t>(rails));
  } else {
    culprit.kind = ComponentKind::uplink;
    culprit.leaf = static_cast<int>(c - rail_end);
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
    diagnosis.notes.push_back("leaf " + std::to_string(leaf) +
                              " met only leaves whose uplinks are named: its own uplink was not "
                              "tested against a healthy leaf, and may be slow too");
  }
}

struct Score {
  int figures = 0;
  int slow = 0;
  double median = 0;
  bool candidate = false;
};

} // namespace

Diagnosis diagnose(const std::vector<Observation>& observations, int nodes, int rails,
                   const std::vector<int>& leaf_of_node, const DiagnosisSettings& settings) {
  Diagnosis diagnosis;
  diagnosis.figures = observations.size();
  if (observations.empty() || nodes < 2)
    return diagnosis;
  const int leaves = 1 + *std::max_element(leaf_of_node.begin(), leaf_of_node.end());
  const Normalised normal = normalise(observations, leaf_of_node);
  const std::vector<float>& lr = normal.log_ratio;
  const double sigma = diagnosis.sigma = normal.sigma;
  const double tolerance = -std::log(settings.tolerance);
  // A figure is slow when beyond the tolerance and three standard deviations of one figure.
  const double slow_cut = std::max(tolerance, 3 * sigma);
  std::vector<int> leaf_members(static_cast<std::size_t>(leaves), 0);
  for (int leaf : leaf_of_node)
    ++leaf_members[static_cast<std::size_t>(leaf)];
  const Candidates candidates =
      index_candidates(observations, nodes, rails, leaf_of_node, leaf_members);
  const CandidateIndex& index = candidates.judged;
  const std::size_t count = index.start.size() - 1;
  const double z = upper_normal_quantile(settings.alpha / static_cast<double>(count));
  diagnosis.z = z;

  std::vector<char> explained(observations.size(), 0);
  std::vector<double> scratch;
  auto score = [&](std::size_t c) {
    Score s;
    scratch.clear();
    for (std::size_t k = index.start[c]; k < index.start[c + 1]; ++k) {
      const std::uint32_t i = index.figures[k];
      if (explained[i])
        continue;
      scratch.push_back(lr[i]);
      s.slow += lr[i] < -slow_cut ? 1 : 0;
    }
    s.figures = static_cast<int>(scratch.size());
    if (s.figures < kMinEvidence)
      return s;
    s.median = median_of(scratch);
    // The median's standard error: 1.2533 sigma / sqrt(n).
    const double needed = std::max(tolerance, z * 1.2533 * sigma / std::sqrt(s.figures));
    s.candidate = s.median < -needed && s.slow > 0;
    return s;
  };

  const std::size_t node_end = static_cast<std::size_t>(nodes);
  const std::size_t rail_end = node_end * (1 + static_cast<std::size_t>(rails));
  const std::size_t one_way = rail_end + static_cast<std::size_t>(leaves);
  // Between two leaves the figures cannot tell which end's uplink is slow (they are the same
  // figures): of equal candidates the smaller leaf's is named, and a note says so.
  // Of components explaining the same figures (a node of one GPU and its rail) the node is named;
  // of a node and one of its directions explaining the same slow figures (none slow the other
  // way), the direction, which says more.
  auto tie_break = [&](std::size_t c) {
    if (c >= one_way)
      return 2;
    return c >= rail_end ? -leaf_members[c - rail_end] : c < node_end ? 1 : 0;
  };
  // The node a node or node-direction candidate stands for, and the partner's candidate that
  // shares its figures with p: its node, or the opposite direction (p's ingress for an egress).
  auto node_of = [&](std::size_t c) { return c < node_end ? c : (c - one_way) % node_end; };
  auto partner_candidate = [&](std::size_t c, std::size_t p) {
    if (c < node_end)
      return p;
    return c - one_way < node_end ? one_way + node_end + p : one_way + p;
  };
  // A node whose slow figures are all with one partner, who is as slow on the same figures, cannot
  // be told from it: naming either (by index) would convict a healthy node half the time. The
  // figures between them are explained and a note names both.
  auto undecidable_pair = [&](std::size_t c, int slow) {
    const std::size_t node = node_of(c);
    std::size_t partner = count;
    for (std::size_t k = index.start[c]; k < index.start[c + 1]; ++k) {
      const std::uint32_t i = index.figures[k];
      if (explained[i] || lr[i] >= -slow_cut)
        continue;
      const std::size_t other =
          observations[i].src == node ? observations[i].dst : observations[i].src;
      if (partner != count && partner != other)
        return false;
      partner = other;
    }
    if (partner == count)
      return false;
    const Score p = score(partner_candidate(c, partner));
    if (!p.candidate || p.slow != slow)
      return false;
    const CandidateIndex& touched = candidates.touched;
    for (std::size_t k = touched.start[c]; k < touched.start[c + 1]; ++k) {
      const auto& o = observations[touched.figures[k]];
      if (o.src == partner || o.dst == partner)
        explained[touched.figures[k]] = 1;
    }
    std::string who;
    if (c < node_end) {
      who = "hosts " + std::to_string(std::min(node, partner)) + " and " +
            std::to_string(std::max(node, partner));
    } else {
      const bool egress = c - one_way < node_end;
      const std::size_t sender = egress ? node : partner, receiver = egress ? partner : node;
      who = "host " + std::to_string(sender) + "'s egress and host " + std::to_string(receiver) +
            "'s ingress";
    }
    diagnosis.notes.push_back(who + " are slow on " + std::to_string(slow) +
                              " figures, all between the two of them: either, or the link "
                              "between them; nothing is named for them");
    return true;
  };
  // Lazy greedy over (slow figures explained, tie break, candidate). Scores only fall as figures
  // are explained, so a candidate re-scored and still on top is the best.
  using Entry = std::tuple<int, int, std::size_t>;
  std::priority_queue<Entry> queue;
  for (std::size_t c = 0; c < count; ++c) {
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
    // slow in what it sends, whose received figures include a few slow ones from slow senders,
    // is its egress.
    if (c < node_end) {
      const bool egress = score(one_way + c).candidate;
      const bool ingress = score(one_way + node_end + c).candidate;
      if (egress != ingress) {
        c = one_way + (egress ? 0 : node_end) + c;
        s = score(c);
      }
    }
    if ((c < node_end || c >= one_way) && undecidable_pair(c, s.slow))
      continue;
    Culprit culprit = component(c, nodes, rails, leaves);
    culprit.factor = std::exp(s.median);
    culprit.figures = s.figures;
    // Every figure it takes part in is explained: the receiver of a slow sender's hop, the rails
    // of a slow node and the nodes behind a slow uplink are not named for them. What is left of
    // a component after a culprit took its share would be a biased remainder (its slowest tail),
    // so a second fault on the same figures (a slow rail of a slow node) is not named; one with
    // figures of its own (a slow node behind a slow uplink: its figures inside the leaf) is.
    std::vector<std::pair<float, std::uint32_t>> shown_figures;
    const CandidateIndex& touched = candidates.touched;
    for (std::size_t k = touched.start[c]; k < touched.start[c + 1]; ++k) {
      const std::uint32_t i = touched.figures[k];
      if (explained[i])
        continue;
      explained[i] = 1;
      if (lr[i] < -slow_cut) {
        ++culprit.slow_figures;
        shown_figures.emplace_back(lr[i], i);
      }
    }
    std::sort(shown_figures.begin(), shown_figures.end());
    for (std::size_t k = 0; k < shown_figures.size() && k < 8; ++k)
      culprit.evidence.push_back(shown_figures[k].second);
    if (culprit.kind == ComponentKind::uplink && !settings.topology_known) {
      diagnosis.notes.push_back(
          "screen group " + std::to_string(culprit.leaf) +
          " is slow with every node outside it and fast inside: the switching between it and the "
          "rest, not its nodes (give --topology to name the switch)");
    } else {
      diagnosis.culprits.push_back(std::move(culprit));
    }
  }

  explain_uniform_crossing(diagnosis, leaves);
  if (leaves == 2 && !diagnosis.culprits.empty() &&
      diagnosis.culprits.back().kind == ComponentKind::uplink) {
    diagnosis.notes.push_back("with two leaves the figures between them cannot tell which leaf's "
                              "uplink is slow: the smaller leaf's is named");
  }

  note_untested_uplinks(observations, leaf_of_node, leaves, settings, diagnosis);
  note_unexplained_pairs(observations, lr, explained, slow_cut, diagnosis);
  return diagnosis;
}

} // namespace cb
