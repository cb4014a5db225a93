// The document renderers: Markdown and self-contained HTML say the same blocks.
#include <gtest/gtest.h>

#include <map>

#include "report/base64.hpp"
#include "report/html_renderer.hpp"
#include "report/markdown_renderer.hpp"

namespace cb::report {
namespace {

TEST(Base64, Rfc4648Vectors) {
  EXPECT_EQ(base64_encode(""), "");
  EXPECT_EQ(base64_encode("f"), "Zg==");
  EXPECT_EQ(base64_encode("fo"), "Zm8=");
  EXPECT_EQ(base64_encode("foo"), "Zm9v");
  EXPECT_EQ(base64_encode("foob"), "Zm9vYg==");
  EXPECT_EQ(base64_encode("fooba"), "Zm9vYmE=");
  EXPECT_EQ(base64_encode("foobar"), "Zm9vYmFy");
}

TEST(Base64, BinaryBytes) {
  const std::string png_signature("\x89PNG\r\n\x1a\n", 8);
  EXPECT_EQ(base64_encode(png_signature), "iVBORw0KGgo=");
  EXPECT_EQ(base64_encode(std::string("\xff\xfe\x00", 3)), "//4A");
}

Document sample_document() {
  Document doc;
  doc.title = "clusterbench report: n1";
  doc.heading(2, "Headline")
      .paragraph("collectives/all_reduce at 8 GPUs.", "Limits scaling first:")
      .bullets({{"Note:", "a < b & c"}, {"", "plain"}})
      .table({{"part", "E at 64"}, {false, true}, {{"a|b", "41.2 %"}, {"storage/seq_read", "9 %"}}})
      .image("plots dir/efficiency_compute.png", "efficiency_compute.png");
  return doc;
}

TEST(Markdown, RendersEveryBlock) {
  const std::string md = render_markdown(sample_document());
  EXPECT_EQ(md.rfind("# clusterbench report: n1\n", 0), 0u);
  EXPECT_NE(md.find("\n## Headline\n"), std::string::npos);
  EXPECT_NE(md.find("\n**Limits scaling first:** collectives/all_reduce at 8 GPUs.\n"),
            std::string::npos);
  EXPECT_NE(md.find("\n- **Note:** a < b & c\n- plain\n"), std::string::npos);
  // Pipes in cells are escaped, numeric columns right-aligned, columns padded to one width.
  EXPECT_NE(md.find("| part             | E at 64 |\n"), std::string::npos) << md;
  EXPECT_NE(md.find("| ---------------- | ------: |\n"), std::string::npos) << md;
  EXPECT_NE(md.find("| a\\|b             |  41.2 % |\n"), std::string::npos) << md;
  EXPECT_NE(md.find("| storage/seq_read |     9 % |\n"), std::string::npos) << md;
  // A path with a space stays one link.
  EXPECT_NE(md.find("![efficiency_compute.png](<plots dir/efficiency_compute.png>)"),
            std::string::npos);
}

TEST(Markdown, PadsByCharactersNotBytes) {
  Document doc;
  doc.table({{"USL α", "x"}, {}, {{"a", "b"}}});
  const std::string md = render_markdown(doc);
  EXPECT_NE(md.find("| USL α | x   |\n| ----- | --- |\n| a     | b   |\n"), std::string::npos)
      << md;
}

TEST(Html, EscapesText) {
  EXPECT_EQ(html_escape("<a href=\"x\">&'"), "&lt;a href=&quot;x&quot;&gt;&amp;&#39;");
}

TEST(Html, MediaTypeByExtension) {
  EXPECT_EQ(image_media_type("a/b.png"), "image/png");
  EXPECT_EQ(image_media_type("a/b.SVG"), "image/svg+xml");
  EXPECT_EQ(image_media_type("b.jpeg"), "image/jpeg");
}

TEST(Html, IsSelfContainedWithFiguresEmbedded) {
  const std::map<std::string, std::string> files = {
      {"plots dir/efficiency_compute.png", std::string("\x89PNG\r\n\x1a\n", 8)}};
  const std::string html = render_html(sample_document(), [&](const std::string& path) {
    const auto it = files.find(path);
    return it == files.end() ? std::nullopt : std::optional<std::string>(it->second);
  });
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_NE(html.find("<meta charset=\"utf-8\">"), std::string::npos);
  EXPECT_NE(html.find("<style>"), std::string::npos);
  EXPECT_NE(html.find("src=\"data:image/png;base64,iVBORw0KGgo=\""), std::string::npos);
  // Nothing is fetched: no links to files or the network, no scripts.
  EXPECT_EQ(html.find("http://"), std::string::npos);
  EXPECT_EQ(html.find("https://"), std::string::npos);
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find("<link"), std::string::npos);
  EXPECT_NE(html.find("<h1>clusterbench report: n1</h1>"), std::string::npos);
  EXPECT_NE(html.find("<p><strong>Limits scaling first:</strong> collectives/all_reduce at 8 "
                      "GPUs.</p>"),
            std::string::npos);
  EXPECT_NE(html.find("<li><strong>Note:</strong> a &lt; b &amp; c</li>"), std::string::npos);
  EXPECT_NE(html.find("<th class=\"num\">E at 64</th>"), std::string::npos);
  EXPECT_NE(html.find("<td>a|b</td><td class=\"num\">41.2 %</td>"), std::string::npos);
  EXPECT_NE(html.find("</html>\n"), std::string::npos);
}

// Each figure has an anchor, so report.html#figure-1 opens at the first plot.
TEST(Html, FiguresAreNumberedAnchors) {
  Document doc;
  doc.paragraph("text", "")
      .image("a.png", "a.png")
      .heading(2, "more")
      .image("b.png", "b.png")
      .image("c.png", "c.png");
  const std::string html = render_html(doc, [](const std::string&) {
    return std::optional<std::string>(std::string("\x89PNG\r\n\x1a\n", 8));
  });
  const auto first = html.find("<figure id=\"figure-1\"><img alt=\"a.png\"");
  const auto second = html.find("<figure id=\"figure-2\"><img alt=\"b.png\"");
  const auto third = html.find("<figure id=\"figure-3\"><img alt=\"c.png\"");
  ASSERT_NE(first, std::string::npos) << html;
  EXPECT_LT(first, second);
  EXPECT_LT(second, third);
  EXPECT_NE(third, std::string::npos);
  EXPECT_EQ(html.find("figure-4"), std::string::npos);
}

TEST(Html, SaysWhenAFigureCannotBeRead) {
  const std::string html =
      render_html(sample_document(), [](const std::string&) { return std::nullopt; });
  EXPECT_EQ(html.find("data:image"), std::string::npos);
  EXPECT_NE(html.find("figure plots dir/efficiency_compute.png could not be read"),
            std::string::npos);
}

TEST(Html, ReadsFileBytes) {
  EXPECT_FALSE(read_file_bytes("/nonexistent/clusterbench/figure.png").has_value());
  const auto bytes = read_file_bytes(std::string(CB_SOURCE_DIR) + "/plots/requirements.txt");
  ASSERT_TRUE(bytes.has_value());
  EXPECT_NE(bytes->find("matplotlib"), std::string::npos);
}

} // namespace
} // namespace cb::report
