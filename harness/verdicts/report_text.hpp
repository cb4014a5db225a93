#pragma once
// How verdict reports print figures: a few significant digits, units people read, and Markdown
// tables padded so they also line up as plain text in a CI log.
#include <string>
#include <vector>

namespace cb {

// Seconds as "812 ns", "12.3 us", "1.24 ms", "2.50 s"; "-" for NaN.
std::string format_seconds(double seconds);
// A figure to `digits` significant digits, without exponent for everyday magnitudes; "-" for NaN.
std::string format_figure(double value, int digits = 4);
// A relative change as a signed percentage: 0.102 -> "+10.2 %"; "-" for NaN.
std::string format_change(double change);
// A non-negative fraction as a percentage without sign: 0.187 -> "18.7 %"; from 10 (1000 %) on
// "over 1000 %", where the figure says only that nothing of the kind can be seen; "-" for NaN.
std::string format_percent_capped(double fraction);
// A p-value: "0.034", "1.2e-08"; "-" for NaN.
std::string format_p(double p);
// A value of a quantity: seconds through format_seconds, anything else with its unit suffix
// removed ("busbw_gbps" 412.3 -> "412.3 GB/s").
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
