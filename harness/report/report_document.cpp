#include "report/report_document.hpp"

namespace cb::report {

Document& Document::heading(int level, std::string text) {
  blocks.emplace_back(Heading{level, std::move(text)});
  return *this;
}

Document& Document::paragraph(std::string text, std::string lead) {
  blocks.emplace_back(Paragraph{std::move(lead), std::move(text)});
  return *this;
}

Document& Document::bullets(std::vector<Paragraph> items) {
  if (!items.empty())
    blocks.emplace_back(BulletList{std::move(items)});
  return *this;
}

Document& Document::table(Table table) {
  blocks.emplace_back(std::move(table));
  return *this;
}

Document& Document::image(std::string path, std::string caption) {
  blocks.emplace_back(Image{std::move(path), std::move(caption)});
  return *this;
}

} // namespace cb::report
