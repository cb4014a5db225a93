#include "report/markdown_renderer.hpp"

#include <algorithm>
#include <sstream>

namespace cb::report {
namespace {

// Display width in characters, counting each UTF-8 sequence once (the report prints a few
// non-ASCII symbols such as the Greek model parameters).
std::size_t display_width(const std::string& text) {
  return static_cast<std::size_t>(std::count_if(text.begin(), text.end(), [](char ch) {
    return (static_cast<unsigned char>(ch) & 0xC0) != 0x80;
  }));
}

std::string padded(const std::string& text, std::size_t width, bool right) {
  const std::size_t w = display_width(text);
  if (w >= width)
    return text;
  const std::string fill(width - w, ' ');
  return right ? fill + text : text + fill;
}

std::string inline_text(const Paragraph& p) {
  if (p.lead.empty())
    return p.text;
  return "**" + p.lead + "**" + (p.text.empty() ? "" : " " + p.text);
}

void render_table(const Table& table, std::ostream& out) {
  const std::size_t columns = table.header.size();
  std::vector<std::vector<std::string>> cells;
  cells.push_back({});
  for (const auto& h : table.header)
    cells.back().push_back(markdown_cell(h));
  for (const auto& row : table.rows) {
    cells.push_back({});
    for (std::size_t c = 0; c < columns; ++c) {
      cells.back().push_back(c < row.size() ? markdown_cell(row[c]) : "");
    }
  }
  std::vector<std::size_t> width(columns, 3);
  for (const auto& row : cells) {
    for (std::size_t c = 0; c < columns; ++c)
      width[c] = std::max(width[c], display_width(row[c]));
  }
  auto numeric = [&](std::size_t c) { return c < table.numeric.size() && table.numeric[c]; };
  for (std::size_t r = 0; r < cells.size(); ++r) {
    out << "|";
    for (std::size_t c = 0; c < columns; ++c) {
      out << " " << padded(cells[r][c], width[c], numeric(c) && r > 0) << " |";
    }
    out << "\n";
    if (r == 0) {
      out << "|";
      for (std::size_t c = 0; c < columns; ++c) {
        out << " " << std::string(width[c] - 1, '-') << (numeric(c) ? ":" : "-") << " |";
      }
      out << "\n";
    }
  }
}

} // namespace

std::string markdown_cell(const std::string& text) {
  std::string cell;
  for (char ch : text) {
    if (ch == '|') {
      cell += "\\|";
    } else if (ch == '\n' || ch == '\r') {
      cell += ' ';
    } else {
      cell += ch;
    }
  }
  return cell;
}

std::string render_markdown(const Document& document) {
  std::ostringstream out;
  if (!document.title.empty())
    out << "# " << document.title << "\n";
  for (const Block& block : document.blocks) {
    out << "\n";
    if (const auto* h = std::get_if<Heading>(&block)) {
      out << std::string(static_cast<std::size_t>(std::clamp(h->level, 1, 6)), '#') << " "
          << h->text << "\n";
    } else if (const auto* p = std::get_if<Paragraph>(&block)) {
      out << inline_text(*p) << "\n";
    } else if (const auto* list = std::get_if<BulletList>(&block)) {
      for (const auto& item : list->items)
        out << "- " << inline_text(item) << "\n";
    } else if (const auto* table = std::get_if<Table>(&block)) {
      render_table(*table, out);
    } else if (const auto* image = std::get_if<Image>(&block)) {
      // CommonMark's <...> form keeps a path with spaces or parentheses one link.
      const bool plain = image->path.find_first_of(" ()<>") == std::string::npos;
      out << "![" << image->caption << "](" << (plain ? image->path : "<" + image->path + ">")
          << ")\n";
    }
  }
  return out.str();
}

} // namespace cb::report
