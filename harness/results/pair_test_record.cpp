#include "results/pair_test_record.hpp"

#include <cmath>
#include <limits>

#include "core/error.hpp"

namespace cb {
namespace {

using nlohmann::json;

// Reads one field's values, naming the file and the field in every refusal.
class FieldReader {
public:
  explicit FieldReader(std::string source) : source_(std::move(source)) {}

  [[noreturn]] void refuse(const std::string& field, const std::string& why) const {
    throw InputError(source_ + ": extra." + field + ": " + why);
  }

  std::string text(const json& object, const char* key, const std::string& field) const {
    auto it = object.find(key);
    if (it == object.end() || it->is_null())
      return "";
    if (!it->is_string())
      refuse(field, "not a string");
    return it->get<std::string>();
  }

  // A non-negative number (a figure); NaN for null where `null_ok`.
  double figure(const json& v, const std::string& field, bool null_ok = false) const {
    if (v.is_null() && null_ok)
      return std::numeric_limits<double>::quiet_NaN();
    if (!v.is_number())
      refuse(field, "not a number");
    const double x = v.get<double>();
    if (!std::isfinite(x) || x < 0)
      refuse(field, "a negative or non-finite figure (" + std::to_string(x) + ")");
    return x;
  }

  // An index below `bound`.
  std::uint32_t index(const json& v, std::size_t bound, const std::string& field) const {
    if (!v.is_number_integer())
      refuse(field, "not an integer");
    const long long i = v.get<long long>();
    if (i < 0 || static_cast<unsigned long long>(i) >= bound)
      refuse(field, "index " + std::to_string(i) + " out of range (0.." +
                        std::to_string(bound == 0 ? 0 : bound - 1) + ")");
    return static_cast<std::uint32_t>(i);
  }

  const json& array(const json& object, const char* key, const std::string& field) const {
    auto it = object.find(key);
    if (it == object.end() || !it->is_array())
      refuse(field, "missing or not an array");
    return *it;
  }

private:
  std::string source_;
};

constexpr std::uint32_t kNoBound = std::numeric_limits<std::uint32_t>::max();

void read_members(const json& extra, const FieldReader& read, PairTestRecord& out) {
  auto members = extra.find("matrix_members");
  if (members == extra.end())
    return;
  if (!members->is_array())
    read.refuse("matrix_members", "not an array");
  for (const auto& m : *members) {
    if (m.is_string()) {
      out.members.push_back(m.get<std::string>());
      out.member_ranks.push_back(-1);
      continue;
    }
    if (!m.is_object())
      read.refuse("matrix_members", "a member that is neither a host name nor a rank identity");
    const std::string host = read.text(m, "host", "matrix_members.host");
    auto rank = m.find("rank");
    const bool has_rank = rank != m.end() && rank->is_number_integer() &&
                          rank->get<long long>() >= 0 && rank->get<long long>() < (1LL << 31);
    if (host.empty() && !has_rank)
      read.refuse("matrix_members", "a member without a host or a rank");
    out.members.push_back(host);
    out.member_ranks.push_back(has_rank ? static_cast<int>(rank->get<long long>()) : -1);
  }
}

void read_matrix(const json& extra, const FieldReader& read, PairTestRecord& out) {
  auto matrix = extra.find("matrix");
  if (matrix == extra.end())
    return;
  const std::size_t n = out.members.size();
  if (!matrix->is_array() || matrix->size() != n)
    read.refuse("matrix", "not " + std::to_string(n) + " rows (one per matrix_members entry)");
  out.matrix.reserve(n * n);
  for (const auto& row : *matrix) {
    if (!row.is_array() || row.size() != n)
      read.refuse("matrix", "a row that is not " + std::to_string(n) + " cells");
    for (const auto& cell : row)
      out.matrix.push_back(read.figure(cell, "matrix", true));
  }
}

void read_observations(const json& extra, const FieldReader& read, PairTestRecord& out) {
  auto obs = extra.find("observations");
  if (obs == extra.end())
    return;
  if (!obs->is_object())
    read.refuse("observations", "not an object");
  const json& src = read.array(*obs, "src", "observations.src");
  const json& dst = read.array(*obs, "dst", "observations.dst");
  const json& rail = read.array(*obs, "rail", "observations.rail");
  const json& round = read.array(*obs, "round", "observations.round");
  const json& value = read.array(*obs, "value", "observations.value");
  const std::size_t count = src.size();
  if (dst.size() != count || rail.size() != count || round.size() != count ||
      value.size() != count) {
    read.refuse("observations", "src, dst, rail, round and value of different lengths");
  }
  const std::size_t n = out.members.size();
  // Rounds are numbered 0 .. screen.rounds - 1, and each holds a figure: a larger number is not a
  // round of this record (and would size the diagnosis's per-round tables by it).
  std::size_t round_bound = std::max<std::size_t>(count, 1);
  if (out.screen && out.screen->rounds > 0)
    round_bound = std::min(round_bound, static_cast<std::size_t>(out.screen->rounds));
  out.observations.resize(count);
  for (std::size_t i = 0; i < count; ++i) {
    PairFigure& f = out.observations[i];
    f.src = read.index(src[i], n, "observations.src");
    f.dst = read.index(dst[i], n, "observations.dst");
    f.rail = read.index(rail[i], 1u << 16, "observations.rail");
    f.round = read.index(round[i], round_bound, "observations.round");
    f.value = read.figure(value[i], "observations.value");
    if (f.src == f.dst)
      read.refuse("observations", "a figure from node " + std::to_string(f.src) + " to itself");
  }
}

long long count_or_zero(const json& object, const char* key, const FieldReader& read,
                        const std::string& field) {
  auto it = object.find(key);
  if (it == object.end())
    return 0;
  if (!it->is_number_integer() || it->get<long long>() < 0)
    read.refuse(field, "not a count");
  return it->get<long long>();
}

void read_screen(const json& extra, const FieldReader& read, PairTestRecord& out) {
  auto screen = extra.find("screen");
  if (screen == extra.end())
    return;
  if (!screen->is_object())
    read.refuse("screen", "not an object");
  ScreenLayout s;
  s.groups = read.text(*screen, "groups", "screen.groups");
  const json& groups = read.array(*screen, "group_of_node", "screen.group_of_node");
  if (groups.size() != out.members.size())
    read.refuse("screen.group_of_node", "not one group per matrix_members entry");
  std::size_t group_count = 0;
  if (auto names = screen->find("group_names"); names != screen->end()) {
    if (!names->is_array())
      read.refuse("screen.group_names", "not an array");
    for (const auto& name : *names) {
      if (!name.is_string())
        read.refuse("screen.group_names", "a name that is not a string");
      s.group_names.push_back(name.get<std::string>());
    }
    group_count = s.group_names.size();
  }
  for (const auto& g : groups) {
    s.group_of_node.push_back(static_cast<int>(
        read.index(g, group_count > 0 ? group_count : out.members.size(), "screen.group_of_node")));
  }
  s.tests = count_or_zero(*screen, "tests", read, "screen.tests");
  s.rounds = count_or_zero(*screen, "rounds", read, "screen.rounds");
  s.k_inside = static_cast<int>(count_or_zero(*screen, "k_inside", read, "screen.k_inside"));
  s.k_across = static_cast<int>(count_or_zero(*screen, "k_across", read, "screen.k_across"));
  s.k_confirm = static_cast<int>(count_or_zero(*screen, "k_confirm", read, "screen.k_confirm"));
  if (auto notes = screen->find("notes"); notes != screen->end() && notes->is_array()) {
    for (const auto& note : *notes) {
      if (note.is_string())
        s.notes.push_back(note.get<std::string>());
    }
  }
  out.screen = std::move(s);
}

// The second pass's retests: an end against a known-good partner, and a suspect pair again.
void read_retests(const json& extra, const std::string& metric, const FieldReader& read,
                  PairTestRecord& out) {
  auto pass = extra.find("second_pass");
  if (pass == extra.end() || !pass->is_object())
    return;
  const std::size_t n = out.members.size();
  if (auto ends = pass->find("end_retests"); ends != pass->end() && ends->is_array()) {
    for (const auto& e : *ends) {
      if (!e.is_object() || !e.contains(metric))
        continue;
      out.retests.push_back({read.index(e.value("node", json()), n, "second_pass.end_retests"),
                             read.index(e.value("partner", json()), n, "second_pass.end_retests"),
                             read.figure(e[metric], "second_pass.end_retests")});
    }
  }
  if (auto pairs = pass->find("pair_retests"); pairs != pass->end() && pairs->is_array()) {
    for (const auto& p : *pairs) {
      auto nodes = p.is_object() ? p.find("nodes") : p.end();
      if (!p.is_object() || nodes == p.end() || !nodes->is_array() || nodes->size() != 2 ||
          !p.contains(metric))
        continue;
      out.retests.push_back({read.index((*nodes)[0], n, "second_pass.pair_retests"),
                             read.index((*nodes)[1], n, "second_pass.pair_retests"),
                             read.figure(p[metric], "second_pass.pair_retests")});
    }
  }
}

} // namespace

bool is_pair_test_across_nodes(const json& extra) {
  if (!extra.is_object())
    return false;
  auto of = extra.find("matrix_of");
  return of != extra.end() && of->is_string() && of->get<std::string>() == "nodes" &&
         extra.contains("matrix_members");
}

PairTestRecord pair_test_from_json(const json& extra, const std::string& source) {
  const FieldReader read(source);
  PairTestRecord out;
  if (!extra.is_object())
    read.refuse("", "not an object");
  out.schedule = read.text(extra, "schedule", "schedule");
  out.matrix_of = read.text(extra, "matrix_of", "matrix_of");
  out.matrix_metric = read.text(extra, "matrix_metric", "matrix_metric");
  if (out.matrix_metric.empty())
    out.matrix_metric = "gbps";
  if (out.matrix_metric != "gbps" && out.matrix_metric != "latency_us")
    read.refuse("matrix_metric", "neither gbps nor latency_us");
  read_members(extra, read, out);
  read_matrix(extra, read, out);
  read_screen(extra, read, out);
  read_observations(extra, read, out);
  read_retests(extra, out.matrix_metric, read, out);
  return out;
}

json pair_test_to_json(const PairTestRecord& r) {
  json members = json::array();
  for (std::size_t i = 0; i < r.members.size(); ++i) {
    const int rank = i < r.member_ranks.size() ? r.member_ranks[i] : -1;
    if (rank < 0) {
      members.push_back(r.members[i]);
    } else {
      json member = {{"rank", rank}};
      if (!r.members[i].empty())
        member["host"] = r.members[i];
      members.push_back(std::move(member));
    }
  }
  json out = {{"schedule", r.schedule},
              {"matrix_of", r.matrix_of},
              {"matrix_metric", r.matrix_metric},
              {"matrix_members", std::move(members)}};
  const std::size_t n = r.members.size();
  if (r.has_matrix()) {
    json rows = json::array();
    for (std::size_t src = 0; src < n; ++src) {
      json row = json::array();
      for (std::size_t dst = 0; dst < n; ++dst)
        row.push_back(std::isnan(r.cell(src, dst)) ? json() : json(r.cell(src, dst)));
      rows.push_back(std::move(row));
    }
    out["matrix"] = std::move(rows);
  }
  if (!r.observations.empty()) {
    json src = json::array(), dst = json::array(), rail = json::array(), round = json::array(),
         value = json::array();
    for (const auto& f : r.observations) {
      src.push_back(f.src);
      dst.push_back(f.dst);
      rail.push_back(f.rail);
      round.push_back(f.round);
      value.push_back(f.value);
    }
    out["observations"] = {
        {"src", src}, {"dst", dst}, {"rail", rail}, {"round", round}, {"value", value}};
  }
  if (r.screen) {
    const ScreenLayout& s = *r.screen;
    out["screen"] = {{"groups", s.groups},
                     {"group_of_node", s.group_of_node},
                     {"group_names", s.group_names},
                     {"tests", s.tests},
                     {"rounds", s.rounds},
                     {"k_inside", s.k_inside},
                     {"k_across", s.k_across},
                     {"k_confirm", s.k_confirm},
                     {"notes", s.notes}};
  }
  if (!r.retests.empty()) {
    json pairs = json::array();
    for (const auto& t : r.retests)
      pairs.push_back({{"nodes", {t.a, t.b}}, {r.matrix_metric, t.value}});
    out["second_pass"] = {{"pair_retests", std::move(pairs)}};
  }
  return out;
}

} // namespace cb
