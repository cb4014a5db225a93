#pragma once
// A family's scalar options (--file-bytes, --pairs, --model-params, ...), declared once beside its
// cases as axes are (bench/<family>/<family>_options.hpp) and listed by its Family (options()).
// One declaration is what `run` parses (the flag, the value's kind and bounds, the one line a bad
// value gets), what `run --help` prints (generated from it: the help line and every default) and
// what a case reads (FamilyOption<T>::value, which applies the declared default for the backend
// kind and profile in use), so the help cannot drift from what a run does.
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include <nlohmann/json.hpp>

#include "runtime/backend_kind.hpp"

namespace cb {

struct RunConfig;

enum class OptionKind {
  size,    // bytes with K/M/G suffixes (core/units.hpp parse_size); 0 only where min is 0
  number,  // a count as people write model sizes: 7e9, 16M, 1.5B (parse_count)
  integer, // a whole number
  flag,    // present or not: no value
  word,    // one of `words`
  path,    // a file or directory name, not empty
};

class OptionDeclaration {
public:
  static OptionDeclaration size(std::string name, std::string placeholder = "SIZE");
  static OptionDeclaration number(std::string name, std::string placeholder = "COUNT");
  static OptionDeclaration integer(std::string name, std::string placeholder = "N");
  static OptionDeclaration flag(std::string name);
  static OptionDeclaration word(std::string name, std::string placeholder,
                                std::vector<std::string> words);
  static OptionDeclaration path(std::string name, std::string placeholder);

  OptionDeclaration& described(std::string text);
  // Inclusive bounds of a size, number or integer (max: none when infinite).
  OptionDeclaration& within(double min, double max = std::numeric_limits<double>::infinity());
  // The default everywhere, and under --quick where it differs (null: the same).
  OptionDeclaration& defaults(nlohmann::json value, nlohmann::json quick = nullptr);
  // The default on a GPU backend where it differs from the host's (quick: under --quick).
  OptionDeclaration& on_gpu(nlohmann::json value, nlohmann::json quick = nullptr);
  // A default worked out when the run knows more (the node count, another option, the temp
  // directory): this says how, for the help; the case works it out from given() being empty.
  OptionDeclaration& computed_default(std::string how);

  const std::string& name() const { return name_; }
  const std::string& placeholder() const { return placeholder_; }
  const std::string& help() const { return help_; }
  OptionKind kind() const { return kind_; }
  const std::vector<std::string>& words() const { return words_; }
  // Whether the default is a declared value (not computed, not a flag's absence).
  bool has_fixed_default() const { return !host_.is_null(); }

  // The value `text` gives the flag; throws InputError "--NAME: ..." (one line, exit 2).
  nlohmann::json parse(const std::string& text) const;
  // The declared default on `kind` (null when computed or a flag).
  nlohmann::json default_value(BackendKind kind, bool quick) const;
  // A value as help prints it: sizes "256 MiB", counts "16777216", words and paths as they are.
  std::string format(const nlohmann::json& value) const;
  // "default: 256 MiB; --quick: 64 MiB; cuda: 1 GiB; cuda --quick: 256 MiB", "default: the
  // node count's ...", or "" (a flag).
  std::string default_help() const;
  // The help line of --NAME: its text, then the defaults in parentheses.
  std::string help_line() const;

  // The value the run was given, or null.
  const nlohmann::json* given_value(const RunConfig& config) const;
  // The value in use: given, else the declared default for the backend kind in use (asked only
  // when the GPU's default differs) and the profile. std::logic_error for a computed default.
  nlohmann::json value_in_use(const RunConfig& config) const;
  nlohmann::json value_in_use(const RunConfig& config, BackendKind kind) const;

protected:
  OptionDeclaration(OptionKind kind, std::string name, std::string placeholder);

private:
  void check_bounds(double value, const std::string& text) const;
  std::string bound_text(double value) const;

  OptionKind kind_;
  std::string name_, placeholder_, help_;
  std::vector<std::string> words_;
  double min_ = 0, max_ = std::numeric_limits<double>::infinity();
  nlohmann::json host_, host_quick_, gpu_, gpu_quick_;
  std::string computed_;
};

// A declaration a case reads typed: std::uint64_t for a size, double for a number, long long for
// an integer, bool for a flag, std::string for a word or a path.
template <class T> class FamilyOption : public OptionDeclaration {
public:
  explicit FamilyOption(OptionDeclaration declaration);

  // Given, else the declared default for the backend in use and the profile.
  T value(const RunConfig& config) const { return value_in_use(config).template get<T>(); }
  // The same on a backend the caller names (a shape that is only ever built for one backend).
  T value(const RunConfig& config, BackendKind kind) const {
    return value_in_use(config, kind).template get<T>();
  }
  std::optional<T> given(const RunConfig& config) const {
    const nlohmann::json* v = given_value(config);
    return v ? std::optional<T>(v->get<T>()) : std::nullopt;
  }
  // As if the flag had been given (tests, and runs made without a command line).
  void set(RunConfig& config, const T& value) const;
};

extern template class FamilyOption<std::uint64_t>;
extern template class FamilyOption<double>;
extern template class FamilyOption<long long>;
extern template class FamilyOption<bool>;
extern template class FamilyOption<std::string>;

} // namespace cb
