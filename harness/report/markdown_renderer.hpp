#pragma once
// Markdown (GitHub flavour) of a report document. Tables are padded so they also line up as plain
// text in a terminal or a CI log.
#include <string>

#include "report/report_document.hpp"

namespace cb::report {

std::string render_markdown(const Document& document);
// A table cell: '|' escaped, line breaks turned into spaces.
std::string markdown_cell(const std::string& text);

} // namespace cb::report
