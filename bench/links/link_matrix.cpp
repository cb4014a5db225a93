#include "links/link_matrix.hpp"

#include <algorithm>
#include <cstdio>

#include "core/error.hpp"
#include "core/format.hpp"
#include "core/stats.hpp"

namespace cb {

LinkMatrix::LinkMatrix(int ranks)
    : ranks_(ranks), cells_(static_cast<std::size_t>(ranks) * static_cast<std::size_t>(ranks)) {}

void LinkMatrix::set(int src, int dst, double value) {
  if (src == dst)
    return; // a rank to itself is not a link
  cells_.at(static_cast<std::size_t>(src * ranks_ + dst)) = value;
}

std::optional<double> LinkMatrix::at(int src, int dst) const {
  return cells_.at(static_cast<std::size_t>(src * ranks_ + dst));
}

std::vector<double> LinkMatrix::values() const {
  std::vector<double> out;
  for (const auto& cell : cells_) {
    if (cell)
      out.push_back(*cell);
  }
  return out;
}

namespace {
std::optional<double> median_of(const std::vector<double>& values) {
  if (values.empty())
    return std::nullopt;
  return median(values);
}
} // namespace

std::optional<double> LinkMatrix::row_median(int src) const {
  std::vector<double> row;
  for (int dst = 0; dst < ranks_; ++dst) {
    if (auto v = at(src, dst))
      row.push_back(*v);
  }
  return median_of(row);
}

std::optional<double> LinkMatrix::column_median(int dst) const {
  std::vector<double> column;
  for (int src = 0; src < ranks_; ++src) {
    if (auto v = at(src, dst))
      column.push_back(*v);
  }
  return median_of(column);
}

nlohmann::json LinkMatrix::to_json() const {
  nlohmann::json rows = nlohmann::json::array();
  for (int src = 0; src < ranks_; ++src) {
    nlohmann::json row = nlohmann::json::array();
    for (int dst = 0; dst < ranks_; ++dst) {
      const auto v = at(src, dst);
      row.push_back(v ? nlohmann::json(*v) : nlohmann::json(nullptr));
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

LinkMatrix LinkMatrix::from_json(const nlohmann::json& rows) {
  if (!rows.is_array())
    throw InputError("extra.matrix: expected an array of rows");
  const int n = static_cast<int>(rows.size());
  LinkMatrix m(n);
  for (int src = 0; src < n; ++src) {
    const auto& row = rows[static_cast<std::size_t>(src)];
    if (!row.is_array() || static_cast<int>(row.size()) != n) {
      throw InputError("extra.matrix: row " + std::to_string(src) + " must have " +
                       std::to_string(n) + " entries");
    }
    for (int dst = 0; dst < n; ++dst) {
      const auto& cell = row[static_cast<std::size_t>(dst)];
      if (cell.is_number()) {
        m.set(src, dst, cell.get<double>());
      } else if (!cell.is_null()) {
        throw InputError("extra.matrix: entry [" + std::to_string(src) + "][" +
                         std::to_string(dst) + "] must be a number or null");
      }
    }
  }
  return m;
}

PairSummary summarize_pairs(const LinkMatrix& m) {
  const std::vector<double> v = m.values();
  PairSummary s;
  s.pairs = v.size();
  if (v.empty())
    return s;
  s.median = median(v);
  s.min = *std::min_element(v.begin(), v.end());
  s.max = *std::max_element(v.begin(), v.end());
  return s;
}

double pair_bytes_counted(std::uint64_t bytes, bool bidirectional) {
  return (bidirectional ? 2.0 : 1.0) * static_cast<double>(bytes);
}

double pair_gbps(double counted, double seconds) {
  return seconds > 0 ? counted / seconds / 1e9 : 0;
}

std::vector<std::pair<int, int>> ordered_pairs(int ranks) {
  std::vector<std::pair<int, int>> out;
  for (int i = 0; i < ranks; ++i) {
    for (int j = 0; j < ranks; ++j) {
      if (i != j)
        out.emplace_back(i, j);
    }
  }
  return out;
}

std::vector<std::pair<int, int>> unordered_pairs(int ranks) {
  std::vector<std::pair<int, int>> out;
  for (int i = 0; i < ranks; ++i) {
    for (int j = i + 1; j < ranks; ++j)
      out.emplace_back(i, j);
  }
  return out;
}

nlohmann::json tier_matrix(const std::vector<int>& node_of_rank) {
  nlohmann::json rows = nlohmann::json::array();
  for (std::size_t i = 0; i < node_of_rank.size(); ++i) {
    nlohmann::json row = nlohmann::json::array();
    for (std::size_t j = 0; j < node_of_rank.size(); ++j) {
      if (i == j) {
        row.push_back(nullptr);
      } else {
        row.push_back(node_of_rank[i] == node_of_rank[j] ? "intra" : "inter");
      }
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

namespace {

std::string format_worst_pairs(const LinkMatrix& m, int precision, bool lower_is_better) {
  struct Cell {
    double value;
    int src, dst;
  };
  std::vector<Cell> cells;
  for (int src = 0; src < m.size(); ++src) {
    for (int dst = 0; dst < m.size(); ++dst) {
      if (const auto v = m.at(src, dst))
        cells.push_back({*v, src, dst});
    }
  }
  const std::size_t shown = std::min(kWorstPairsPrinted, cells.size());
  // Worst first; ties in source, then destination order, so the listing is the same every time.
  std::partial_sort(cells.begin(), cells.begin() + static_cast<std::ptrdiff_t>(shown), cells.end(),
                    [lower_is_better](const Cell& a, const Cell& b) {
                      if (a.value != b.value)
                        return lower_is_better ? a.value > b.value : a.value < b.value;
                      return a.src != b.src ? a.src < b.src : a.dst < b.dst;
                    });
  char line[128];
  std::snprintf(line, sizeof line,
                "    %d x %d matrix (in the results file); the %zu worst of %zu pairs:\n", m.size(),
                m.size(), shown, cells.size());
  std::string out = line;
  for (std::size_t i = 0; i < shown; ++i) {
    std::snprintf(line, sizeof line, "    %8d -> %-8d %9s\n", cells[i].src, cells[i].dst,
                  format_fixed(cells[i].value, precision).c_str());
    out += line;
  }
  return out;
}

} // namespace

std::string format_matrix(const LinkMatrix& m, int precision, bool lower_is_better) {
  if (m.size() > kMaxPrintedMatrix)
    return format_worst_pairs(m, precision, lower_is_better);
  std::string out;
  char cell[64];
  std::snprintf(cell, sizeof cell, "    %8s", "src\\dst");
  out += cell;
  for (int dst = 0; dst < m.size(); ++dst) {
    std::snprintf(cell, sizeof cell, " %9d", dst);
    out += cell;
  }
  out += "\n";
  for (int src = 0; src < m.size(); ++src) {
    std::snprintf(cell, sizeof cell, "    %8d", src);
    out += cell;
    for (int dst = 0; dst < m.size(); ++dst) {
      if (const auto v = m.at(src, dst)) {
        std::snprintf(cell, sizeof cell, " %9s", format_fixed(*v, precision).c_str());
      } else {
        std::snprintf(cell, sizeof cell, " %9s", "-");
      }
      out += cell;
    }
    out += "\n";
  }
  return out;
}

} // namespace cb
