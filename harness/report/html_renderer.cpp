#include "report/html_renderer.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>

#include "report/base64.hpp"
#include "results/output_target.hpp"

namespace cb::report {
namespace {

// Kept short and inline: the page must render the same with no network and no other file.
constexpr const char* kStyle = R"css(
body { font-family: -apple-system, "Segoe UI", "DejaVu Sans", Helvetica, Arial, sans-serif;
       color: #1f2328; background: #ffffff; margin: 0; line-height: 1.45; }
main { max-width: 1100px; margin: 0 auto; padding: 24px 32px 48px; }
h1 { font-size: 1.6em; border-bottom: 2px solid #d0d7de; padding-bottom: 6px; }
h2 { font-size: 1.3em; border-bottom: 1px solid #d0d7de; padding-bottom: 4px; margin-top: 1.8em; }
h3 { font-size: 1.05em; margin-top: 1.4em; }
.wide { overflow-x: auto; max-width: 100%; }
table { border-collapse: collapse; margin: 8px 0 12px; font-size: 0.9em; }
th, td { border: 1px solid #d0d7de; padding: 3px 9px; text-align: left; vertical-align: top; }
th { background: #f3f5f7; }
tr:nth-child(even) td { background: #fafbfc; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
ul { padding-left: 1.4em; }
li { margin: 3px 0; }
figure { margin: 12px 0 20px; }
figure img { max-width: 100%; height: auto; border: 1px solid #d0d7de; }
figcaption { font-size: 0.85em; color: #57606a; }
.missing { color: #9a6700; }
)css";

std::string inline_html(const Paragraph& p) {
  std::string html;
  if (!p.lead.empty())
    html += "<strong>" + html_escape(p.lead) + "</strong>";
  if (!p.lead.empty() && !p.text.empty())
    html += " ";
  return html + html_escape(p.text);
}

void render_table(const Table& table, std::ostream& out) {
  auto cell_class = [&](std::size_t c) {
    return c < table.numeric.size() && table.numeric[c] ? " class=\"num\"" : "";
  };
  out << "<div class=\"wide\"><table>\n<thead><tr>";
  for (std::size_t c = 0; c < table.header.size(); ++c) {
    out << "<th" << cell_class(c) << ">" << html_escape(table.header[c]) << "</th>";
  }
  out << "</tr></thead>\n<tbody>\n";
  for (const auto& row : table.rows) {
    out << "<tr>";
    for (std::size_t c = 0; c < table.header.size(); ++c) {
      out << "<td" << cell_class(c) << ">" << (c < row.size() ? html_escape(row[c]) : "")
          << "</td>";
    }
    out << "</tr>\n";
  }
  out << "</tbody>\n</table></div>\n";
}

// Figures are numbered from 1 in page order, id "figure-N", so a link (or a screenshot of
// report.html#figure-1) can go straight to them below the tables.
void render_image(const Image& image, int number, const ImageReader& read_image,
                  std::ostream& out) {
  const auto bytes = read_image(image.path);
  out << "<figure id=\"figure-" << number << "\">";
  if (bytes) {
    out << "<img alt=\"" << html_escape(image.caption)
        << "\" src=\"data:" << image_media_type(image.path) << ";base64," << base64_encode(*bytes)
        << "\">";
  } else {
    out << "<p class=\"missing\">figure " << html_escape(image.path) << " could not be read</p>";
  }
  out << "<figcaption>" << html_escape(image.caption) << "</figcaption></figure>\n";
}

} // namespace

std::optional<std::string> read_file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return std::nullopt;
  std::ostringstream bytes;
  bytes << in.rdbuf();
  if (in.bad())
    return std::nullopt;
  return bytes.str();
}

std::string html_escape(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char ch : text) {
    switch (ch) {
    case '&':
      out += "&amp;";
      break;
    case '<':
      out += "&lt;";
      break;
    case '>':
      out += "&gt;";
      break;
    case '"':
      out += "&quot;";
      break;
    case '\'':
      out += "&#39;";
      break;
    default:
      out += ch;
    }
  }
  return out;
}

std::string image_media_type(const std::string& path) {
  auto ends_with = [&](const std::string& suffix) {
    if (path.size() < suffix.size())
      return false;
    return std::equal(suffix.rbegin(), suffix.rend(), path.rbegin(), [](char a, char b) {
      return a == std::tolower(static_cast<unsigned char>(b));
    });
  };
  if (ends_with(".svg"))
    return "image/svg+xml";
  if (ends_with(".jpg") || ends_with(".jpeg"))
    return "image/jpeg";
  return "image/png";
}

std::string render_html(const Document& document, const ImageReader& read_image) {
  std::ostringstream out;
  // refuse_foreign_file knows a page of ours by this start (and a title "clusterbench ...").
  out << kReportPageStart << html_escape(document.title) << "</title>\n"
      << "<style>" << kStyle << "</style>\n</head>\n<body>\n<main>\n";
  if (!document.title.empty())
    out << "<h1>" << html_escape(document.title) << "</h1>\n";
  int figures = 0;
  for (const Block& block : document.blocks) {
    if (const auto* h = std::get_if<Heading>(&block)) {
      const int level = std::clamp(h->level, 1, 6);
      out << "<h" << level << ">" << html_escape(h->text) << "</h" << level << ">\n";
    } else if (const auto* p = std::get_if<Paragraph>(&block)) {
      out << "<p>" << inline_html(*p) << "</p>\n";
    } else if (const auto* list = std::get_if<BulletList>(&block)) {
      out << "<ul>\n";
      for (const auto& item : list->items)
        out << "<li>" << inline_html(item) << "</li>\n";
      out << "</ul>\n";
    } else if (const auto* table = std::get_if<Table>(&block)) {
      render_table(*table, out);
    } else if (const auto* image = std::get_if<Image>(&block)) {
      render_image(*image, ++figures, read_image, out);
    }
  }
  out << "</main>\n</body>\n</html>\n";
  return out.str();
}

} // namespace cb::report
