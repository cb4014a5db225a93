#include "exporters/prometheus_text.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <stdexcept>

#include "exporters/text_cleaning.hpp"

namespace cb {
namespace {

bool name_char(char c, bool first, bool colon) {
  const bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
  return letter || (colon && c == ':') || (!first && c >= '0' && c <= '9');
}

bool valid_name(std::string_view name, bool colon) {
  if (name.empty())
    return false;
  for (std::size_t i = 0; i < name.size(); ++i) {
    if (!name_char(name[i], i == 0, colon))
      return false;
  }
  return true;
}

// Backslashes, newlines and (with `quote`) double quotes escaped, after what the format cannot
// carry at all is replaced; newlines survive the replacement to be escaped.
std::string escape(std::string_view text, bool quote) {
  const std::string clean = replace_unsafe_text(text, "\n");
  std::string out;
  out.reserve(clean.size());
  for (const char c : clean) {
    if (c == '\\')
      out += "\\\\";
    else if (c == '\n')
      out += "\\n";
    else if (quote && c == '"')
      out += "\\\"";
    else
      out += c;
  }
  return out;
}

// The series' identity as Prometheus reads it: labels with empty values are absent.
std::string identity_of(const std::vector<PromLabel>& labels) {
  std::vector<std::string> parts;
  for (const auto& label : labels) {
    if (!label.value.empty())
      parts.push_back(label.name + "=" + escape_label_value(label.value));
  }
  std::sort(parts.begin(), parts.end());
  std::string id;
  for (const auto& part : parts)
    id += part + ",";
  return id;
}

} // namespace

bool valid_metric_name(std::string_view name) {
  return valid_name(name, true);
}

bool valid_label_name(std::string_view name) {
  return valid_name(name, false) && name.substr(0, 2) != "__";
}

std::string escape_label_value(std::string_view value) {
  return escape(value, true);
}

std::string escape_help(std::string_view help) {
  return escape(help, false);
}

std::string format_sample_value(double value) {
  if (std::isnan(value))
    return "NaN";
  if (std::isinf(value))
    return value > 0 ? "+Inf" : "-Inf";
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, result.ptr);
}

void PromDocument::add(const std::string& name, const std::string& help,
                       std::vector<PromLabel> labels, double value) {
  if (!valid_metric_name(name))
    throw std::logic_error("not a Prometheus metric name: " + name);
  for (std::size_t i = 0; i < labels.size(); ++i) {
    if (!valid_label_name(labels[i].name))
      throw std::logic_error("not a Prometheus label name: " + labels[i].name);
    for (std::size_t k = 0; k < i; ++k) {
      if (labels[k].name == labels[i].name)
        throw std::logic_error("label named twice: " + labels[i].name);
    }
  }
  auto it = std::find_if(families_.begin(), families_.end(),
                         [&](const PromFamily& f) { return f.name == name; });
  if (it == families_.end()) {
    families_.push_back({name, help, {}});
    identities_.emplace_back();
    it = families_.end() - 1;
  }
  auto& seen = identities_[static_cast<std::size_t>(it - families_.begin())];
  if (!seen.insert(identity_of(labels)).second) {
    ++dropped_;
    return;
  }
  it->samples.push_back({std::move(labels), value});
}

std::string PromDocument::text(std::string_view heading) const {
  std::string out(kPrometheusFileStart);
  out += escape_help(heading);
  out += "\n";
  // Said in the file, where whoever reads it looks: a series left out is not a silent loss.
  if (dropped_ > 0) {
    out += "# " + std::to_string(dropped_) +
           " series left out: the same name and labels as an earlier one\n";
  }
  for (const auto& family : families_) {
    out += "# HELP " + family.name + " " + escape_help(family.help) + "\n";
    out += "# TYPE " + family.name + " gauge\n";
    for (const auto& sample : family.samples) {
      out += family.name;
      std::string labels;
      for (const auto& label : sample.labels) {
        if (label.value.empty())
          continue; // absent, as Prometheus reads it: every sample need not have every label
        labels += (labels.empty() ? "" : ",") + label.name + "=\"" +
                  escape_label_value(label.value) + "\"";
      }
      if (!labels.empty())
        out += "{" + labels + "}";
      out += " " + format_sample_value(sample.value) + "\n";
    }
  }
  return out;
}

} // namespace cb
