#pragma once
// How verdict reports print quantities (p-values: format_p in core/format.hpp), and Markdown tables
// padded so they also line up as plain text in a CI log. Figures, seconds and percentages:
// core/format.hpp (the verdicts use format_figure_padded and the ASCII format_seconds).
#include <string>
#include <vector>

#include "core/format.hpp"

namespace cb {

// A value of a quantity: seconds through format_seconds, anything else through
// format_figure_padded with its unit suffix removed ("busbw_gbps" 412.3 -> "412.3 GB/s").
std::string format_quantity(const std::string& quantity, double value);
// "busbw_gbps" -> "busbw GB/s"; "time_s" -> "time".
std::string quantity_label(const std::string& quantity);

class MarkdownTable {
public:
  explicit MarkdownTable(std::vector<std::string> header);
  void add_row(std::vector<std::string> cells); // padded or cut to the header's width
  bool empty() const { return rows_.empty(); }
  std::string str() const;

private:
  std::vector<std::string> header_;
  std::vector<std::vector<std::string>> rows_;
};

} // namespace cb
