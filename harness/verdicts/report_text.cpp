#include "verdicts/report_text.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <utility>

#include "results/metric_table.hpp"

namespace cb {
namespace {

// A quantity's unit from the metric table's suffixes, and the name before it: "busbw_gbps" ->
// {"busbw", "GB/s"}, a bare unit name "gbps" -> {"", "GB/s"}; nullopt for a name with no unit.
// The underscore between name and unit is the unit's own for time suffixes ("_us") and added for
// the others ("gbps").
struct NamedUnit {
  std::string name;
  std::string unit;
};
std::optional<NamedUnit> split_unit(const std::string& quantity) {
  for (const auto& u : metric_unit_suffixes()) {
    if (u.suffix.front() != '_' && quantity == u.suffix)
      return NamedUnit{"", u.unit};
    const std::string suffix = u.suffix.front() == '_' ? u.suffix : "_" + u.suffix;
    if (quantity.size() > suffix.size() &&
        quantity.compare(quantity.size() - suffix.size(), suffix.size(), suffix) == 0) {
      return NamedUnit{quantity.substr(0, quantity.size() - suffix.size()), u.unit};
    }
  }
  return std::nullopt;
}

// Display width of UTF-8 text: continuation bytes take no column.
std::size_t display_width(const std::string& text) {
  std::size_t width = 0;
  for (unsigned char c : text)
    width += (c & 0xC0) != 0x80;
  return width;
}

} // namespace

std::string quantity_label(const std::string& quantity) {
  if (quantity == "time_s")
    return "time";
  const auto named = split_unit(quantity);
  if (!named)
    return quantity;
  return named->name.empty() ? named->unit : named->name + " " + named->unit;
}

std::string format_quantity(const std::string& quantity, double value) {
  if (quantity == "time_s")
    return format_seconds(value);
  if (std::isnan(value))
    return "-";
  const auto named = split_unit(quantity);
  return named ? format_figure_padded(value) + " " + named->unit : format_figure_padded(value);
}

MarkdownTable::MarkdownTable(std::vector<std::string> header) : header_(std::move(header)) {}

void MarkdownTable::add_row(std::vector<std::string> cells) {
  cells.resize(header_.size());
  for (auto& cell : cells) { // a bare '|' would split the cell
    for (std::size_t at = cell.find('|'); at != std::string::npos; at = cell.find('|', at + 2)) {
      cell.insert(at, "\\");
    }
  }
  rows_.push_back(std::move(cells));
}

std::string MarkdownTable::str() const {
  std::vector<std::size_t> widths(header_.size(), 3);
  auto widen = [&](const std::vector<std::string>& row) {
    for (std::size_t i = 0; i < row.size(); ++i)
      widths[i] = std::max(widths[i], display_width(row[i]));
  };
  widen(header_);
  for (const auto& row : rows_)
    widen(row);
  auto line = [&](const std::vector<std::string>& row) {
    std::string text = "|";
    for (std::size_t i = 0; i < row.size(); ++i) {
      text += " " + row[i] + std::string(widths[i] - display_width(row[i]), ' ') + " |";
    }
    return text + "\n";
  };
  std::string text = line(header_);
  text += "|";
  for (std::size_t w : widths)
    text += std::string(w + 2, '-') + "|";
  text += "\n";
  for (const auto& row : rows_)
    text += line(row);
  return text;
}

} // namespace cb
