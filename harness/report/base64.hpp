#pragma once
// Base64 (RFC 4648, standard alphabet, padded): how the HTML report embeds its figures as data:
// URIs, so the file needs nothing beside it.
#include <string>
#include <string_view>

namespace cb::report {

std::string base64_encode(std::string_view bytes);

} // namespace cb::report
