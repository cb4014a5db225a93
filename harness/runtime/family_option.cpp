#include "runtime/family_option.hpp"

#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "core/error.hpp"
#include "core/format.hpp"
#include "core/units.hpp"
#include "runtime/run_config.hpp"

namespace cb {

OptionDeclaration::OptionDeclaration(OptionKind kind, std::string name, std::string placeholder)
    : kind_(kind), name_(std::move(name)), placeholder_(std::move(placeholder)) {}

OptionDeclaration OptionDeclaration::size(std::string name, std::string placeholder) {
  OptionDeclaration d(OptionKind::size, std::move(name), std::move(placeholder));
  d.min_ = 1;
  return d;
}

OptionDeclaration OptionDeclaration::number(std::string name, std::string placeholder) {
  return {OptionKind::number, std::move(name), std::move(placeholder)};
}

OptionDeclaration OptionDeclaration::integer(std::string name, std::string placeholder) {
  return {OptionKind::integer, std::move(name), std::move(placeholder)};
}

OptionDeclaration OptionDeclaration::flag(std::string name) {
  return {OptionKind::flag, std::move(name), ""};
}

OptionDeclaration OptionDeclaration::word(std::string name, std::string placeholder,
                                          std::vector<std::string> words) {
  OptionDeclaration d(OptionKind::word, std::move(name), std::move(placeholder));
  d.words_ = std::move(words);
  return d;
}

OptionDeclaration OptionDeclaration::path(std::string name, std::string placeholder) {
  return {OptionKind::path, std::move(name), std::move(placeholder)};
}

OptionDeclaration& OptionDeclaration::described(std::string text) {
  help_ = std::move(text);
  return *this;
}

OptionDeclaration& OptionDeclaration::within(double min, double max) {
  min_ = min;
  max_ = max;
  return *this;
}

OptionDeclaration& OptionDeclaration::defaults(nlohmann::json value, nlohmann::json quick) {
  host_ = std::move(value);
  host_quick_ = std::move(quick);
  return *this;
}

OptionDeclaration& OptionDeclaration::on_gpu(nlohmann::json value, nlohmann::json quick) {
  gpu_ = std::move(value);
  gpu_quick_ = std::move(quick);
  return *this;
}

OptionDeclaration& OptionDeclaration::computed_default(std::string how) {
  computed_ = std::move(how);
  return *this;
}

std::string OptionDeclaration::bound_text(double value) const {
  if (kind_ == OptionKind::size)
    return format_size(static_cast<std::uint64_t>(value));
  // Whole numbers as typed, exactly (a model's 16777216 parameters, not 1.68e+07).
  if (value == std::floor(value) && std::fabs(value) < 1e15)
    return std::to_string(static_cast<long long>(value));
  return format_figure_compact(value, 6);
}

// The one line every bounded kind gets: "--prefetch: must be 1..64, got 0".
void OptionDeclaration::check_bounds(double value, const std::string& text) const {
  if (value >= min_ && value <= max_)
    return;
  const std::string range = std::isinf(max_) ? "at least " + bound_text(min_)
                                             : bound_text(min_) + ".." + bound_text(max_);
  throw InputError("--" + name_ + ": must be " + range + ", got " + shown(text));
}

nlohmann::json OptionDeclaration::parse(const std::string& text) const {
  const std::string flag = "--" + name_;
  switch (kind_) {
  case OptionKind::size: {
    // parse_size refuses 0 (a size of nothing is a mistake elsewhere); here 0 may mean "none".
    const bool zero = !text.empty() && text.find_first_not_of('0') == std::string::npos;
    const std::uint64_t v = zero && min_ <= 0 ? 0 : parse_size(text, flag);
    check_bounds(static_cast<double>(v), text);
    return v;
  }
  case OptionKind::number: {
    const double v = parse_count(text, flag);
    check_bounds(v, text);
    return v;
  }
  case OptionKind::integer: {
    const long long v = parse_integer(text, flag);
    check_bounds(static_cast<double>(v), text);
    return v;
  }
  case OptionKind::flag:
    return true;
  case OptionKind::word: {
    for (const auto& w : words_) {
      if (w == text)
        return text;
    }
    std::string expected;
    for (std::size_t i = 0; i < words_.size(); ++i)
      expected += (i == 0 ? "" : i + 1 == words_.size() ? " or " : ", ") + words_[i];
    throw InputError(flag + ": expected " + expected + ", got '" + shown(text) + "'");
  }
  case OptionKind::path:
    if (text.empty())
      throw InputError(flag + ": expected a name, got an empty one");
    return text;
  }
  return nullptr;
}

nlohmann::json OptionDeclaration::default_value(BackendKind kind, bool quick) const {
  const bool gpu = kind != BackendKind::host && !gpu_.is_null();
  const nlohmann::json& all = gpu ? gpu_ : host_;
  const nlohmann::json& fast = gpu ? gpu_quick_ : host_quick_;
  return quick && !fast.is_null() ? fast : all;
}

std::string OptionDeclaration::format(const nlohmann::json& value) const {
  switch (kind_) {
  case OptionKind::size:
    return format_bytes(static_cast<double>(value.get<std::uint64_t>()));
  case OptionKind::number:
  case OptionKind::integer:
    return bound_text(value.get<double>());
  case OptionKind::flag:
    return value.get<bool>() ? "on" : "off";
  case OptionKind::word:
  case OptionKind::path:
    return value.get<std::string>();
  }
  return "";
}

std::string OptionDeclaration::default_help() const {
  if (!computed_.empty())
    return "default: " + computed_;
  if (!has_fixed_default())
    return "";
  const auto host = default_value(BackendKind::host, false);
  const auto host_quick = default_value(BackendKind::host, true);
  std::string out = "default: " + format(host);
  if (host_quick != host)
    out += "; --quick: " + format(host_quick);
  if (gpu_.is_null())
    return out;
  const std::string gpu_name = backend_kind_name(BackendKind::cuda);
  const auto gpu = default_value(BackendKind::cuda, false);
  const auto gpu_quick = default_value(BackendKind::cuda, true);
  out += "; " + gpu_name + ": " + format(gpu);
  if (gpu_quick != gpu)
    out += "; " + gpu_name + " --quick: " + format(gpu_quick);
  return out;
}

std::string OptionDeclaration::help_line() const {
  const std::string defaults = default_help();
  return defaults.empty() ? help_ : help_ + " (" + defaults + ")";
}

const nlohmann::json* OptionDeclaration::given_value(const RunConfig& config) const {
  const auto it = config.options.find(name_);
  return it == config.options.end() ? nullptr : &it->second;
}

nlohmann::json OptionDeclaration::value_in_use(const RunConfig& config) const {
  // The backend is asked only when the answer depends on it: host-only defaults are known before
  // the launcher resolves "auto".
  const bool depends = given_value(config) == nullptr && !gpu_.is_null();
  return value_in_use(config, depends ? config.backend_in_use() : BackendKind::host);
}

nlohmann::json OptionDeclaration::value_in_use(const RunConfig& config, BackendKind kind) const {
  if (const nlohmann::json* given = given_value(config))
    return *given;
  if (kind_ == OptionKind::flag)
    return false;
  if (!has_fixed_default())
    throw std::logic_error("--" + name_ + " has a computed default: read given() instead");
  return default_value(kind, config.quick);
}

namespace {

template <class T> constexpr OptionKind kind_of_type() {
  if constexpr (std::is_same_v<T, std::uint64_t>)
    return OptionKind::size;
  else if constexpr (std::is_same_v<T, double>)
    return OptionKind::number;
  else if constexpr (std::is_same_v<T, long long>)
    return OptionKind::integer;
  else if constexpr (std::is_same_v<T, bool>)
    return OptionKind::flag;
  else
    return OptionKind::word; // or path
}

} // namespace

template <class T>
FamilyOption<T>::FamilyOption(OptionDeclaration declaration)
    : OptionDeclaration(std::move(declaration)) {
  const OptionKind expected = kind_of_type<T>();
  const bool text = kind() == OptionKind::word || kind() == OptionKind::path;
  if (expected == OptionKind::word ? !text : kind() != expected)
    throw std::logic_error("--" + name() + ": declared with a type its kind does not read as");
}

template <class T> void FamilyOption<T>::set(RunConfig& config, const T& value) const {
  config.options[name()] = value;
}

template class FamilyOption<std::uint64_t>;
template class FamilyOption<double>;
template class FamilyOption<long long>;
template class FamilyOption<bool>;
template class FamilyOption<std::string>;

} // namespace cb
