#pragma once
// A report as format-neutral blocks. The builder decides what is said; the Markdown and HTML
// renderers only decide how it looks, so the two always say the same thing.
#include <string>
#include <variant>
#include <vector>

namespace cb::report {

struct Heading {
  int level = 2; // 1 is the title
  std::string text;
};

// `lead` is set in bold before the text ("Limits scaling first: ...").
struct Paragraph {
  std::string lead;
  std::string text;
};

struct BulletList {
  std::vector<Paragraph> items;
};

struct Table {
  std::vector<std::string> header;
  std::vector<bool> numeric; // right-aligned columns; may be shorter than the header
  std::vector<std::vector<std::string>> rows;
};

// A figure on disk (a PNG from plots/plot.py).
struct Image {
  std::string path;
  std::string caption;
};

using Block = std::variant<Heading, Paragraph, BulletList, Table, Image>;

struct Document {
  std::string title;
  std::vector<Block> blocks;

  Document& heading(int level, std::string text);
  Document& paragraph(std::string text, std::string lead = "");
  Document& bullets(std::vector<Paragraph> items);
  Document& table(Table table);
  Document& image(std::string path, std::string caption);
};

} // namespace cb::report
