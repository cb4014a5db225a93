#pragma once
// One self-contained HTML page of a report document: CSS inline, figures embedded as base64
// data: URIs, no script and nothing fetched, so it opens anywhere and can be attached to a ticket.
#include <functional>
#include <optional>
#include <string>

#include "report/report_document.hpp"

namespace cb::report {

// Reads a figure's bytes; nullopt when it cannot be read (the page then says so in its place).
using ImageReader = std::function<std::optional<std::string>(const std::string& path)>;

// The whole file's bytes, or nullopt.
std::optional<std::string> read_file_bytes(const std::string& path);
// "&", "<", ">", '"' and "'" as entities.
std::string html_escape(const std::string& text);
// image/png, image/svg+xml, image/jpeg by the file's extension; image/png otherwise.
std::string image_media_type(const std::string& path);

// Each figure carries id="figure-N", N counting from 1 in page order.
std::string render_html(const Document& document, const ImageReader& read_image = read_file_bytes);

} // namespace cb::report
