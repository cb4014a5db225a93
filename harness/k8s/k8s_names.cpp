#include "k8s/k8s_names.hpp"

#include <regex>
#include <string>

namespace cb {
namespace {

bool matches(std::string_view text, const std::regex& pattern) {
  return std::regex_match(text.begin(), text.end(), pattern);
}

} // namespace

bool is_dns1035_label(std::string_view text) {
  static const std::regex pattern("[a-z]([-a-z0-9]*[a-z0-9])?");
  return !text.empty() && text.size() <= 63 && matches(text, pattern);
}

bool is_dns1123_label(std::string_view text) {
  static const std::regex pattern("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
  return !text.empty() && text.size() <= 63 && matches(text, pattern);
}

bool is_dns1123_subdomain(std::string_view text) {
  static const std::regex pattern(
      "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");
  return !text.empty() && text.size() <= 253 && matches(text, pattern);
}

bool is_label_value(std::string_view text) {
  static const std::regex pattern("([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]");
  return text.empty() || (text.size() <= 63 && matches(text, pattern));
}

bool is_resource_name(std::string_view text) {
  static const std::regex name("([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]");
  const std::size_t slash = text.find('/');
  if (slash == std::string_view::npos || text.find('/', slash + 1) != std::string_view::npos)
    return false; // an extended resource is always prefixed ("vendor.com/name")
  const std::string_view prefix = text.substr(0, slash);
  const std::string_view rest = text.substr(slash + 1);
  return is_dns1123_subdomain(prefix) && !rest.empty() && rest.size() <= 63 && matches(rest, name);
}

bool is_positive_quantity(std::string_view text) {
  // resource.Quantity's grammar, sign left out: a quantity here is a size or a count, never < 0.
  static const std::regex pattern(
      "([0-9]+(\\.[0-9]*)?|\\.[0-9]+)(Ki|Mi|Gi|Ti|Pi|Ei|m|k|M|G|T|P|E|[eE][-+]?[0-9]+)?");
  if (text.empty() || text.size() > 64 || !matches(text, pattern))
    return false;
  // Greater than zero: some digit before the suffix is not 0.
  for (char c : text) {
    if (c >= '1' && c <= '9')
      return true;
    if (c != '0' && c != '.')
      return false;
  }
  return false;
}

bool is_image_reference(std::string_view text) {
  // distribution/reference: domain components, optional port; path components of lowercase
  // alphanumerics separated by '.', '_', '__' or dashes; a tag of up to 128 word characters; a
  // digest "algorithm:hex".
  static const std::regex pattern(
      "((([a-zA-Z0-9]|[a-zA-Z0-9][-a-zA-Z0-9]*[a-zA-Z0-9])(\\.([a-zA-Z0-9]|[a-zA-Z0-9][-a-zA-Z0-9]*"
      "[a-zA-Z0-9]))*(:[0-9]+)?)/)?"
      "[a-z0-9]+((\\.|_|__|-+)[a-z0-9]+)*(/[a-z0-9]+((\\.|_|__|-+)[a-z0-9]+)*)*"
      "(:[A-Za-z0-9_][A-Za-z0-9_.-]{0,127})?"
      "(@[A-Za-z][A-Za-z0-9]*([-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,})?");
  if (text.empty() || text.size() > 512 || !matches(text, pattern))
    return false;
  // A first component is a registry host only when it looks like one (a dot, a port, or
  // "localhost"); otherwise it is part of the path, and a path is lowercase.
  const std::size_t first_slash = text.find('/');
  if (first_slash != std::string_view::npos) {
    const std::string_view first = text.substr(0, first_slash);
    const bool host = first.find_first_of(".:") != std::string_view::npos || first == "localhost";
    if (!host && first.find_first_of("ABCDEFGHIJKLMNOPQRSTUVWXYZ") != std::string_view::npos)
      return false;
  }
  // The name (before a tag or digest) is at most 255 characters.
  std::size_t name_end = text.find('@');
  if (name_end == std::string_view::npos)
    name_end = text.size();
  const std::size_t last_slash = text.rfind('/', name_end);
  const std::size_t colon = text.find(':', last_slash == std::string_view::npos ? 0 : last_slash);
  if (colon != std::string_view::npos && colon < name_end)
    name_end = colon;
  return name_end <= 255;
}

} // namespace cb
