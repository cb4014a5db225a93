#include "results/json_tree_builder.hpp"

#include "core/error.hpp"
#include "results/json_file.hpp"

namespace cb {

bool JsonTreeBuilder::key(json::string_t& k) {
  auto& members = open_.back()->get_ref<json::object_t&>();
  if (merge_)
    last_key_ = k; // the name of an object that opens next, for the merge only
  const auto [it, inserted] = members.emplace(std::move(k), nullptr);
  if (inserted) {
    value_of_key_ = &it->second;
    return true;
  }
  if (!merge_) {
    throw InputError(source_ + ": key '" + shown(it->first, 80) +
                     "' appears twice in one object; which of its values is meant cannot be "
                     "told, so the file is refused");
  }
  repeats_.push_back({open_.back(), open_names_.back(), it->first, json()});
  value_of_key_ = &repeats_.back().value;
  return true;
}

void JsonTreeBuilder::merge_repeat() {
  Repeat repeat = std::move(repeats_.back());
  repeats_.pop_back();
  merge_(*repeat.object, repeat.object_name, repeat.key, std::move(repeat.value));
}

bool JsonTreeBuilder::parse_error(std::size_t, const std::string&,
                                  const nlohmann::detail::exception& e) {
  throw not_valid_json(source_, e);
}

JsonTreeBuilder::json* JsonTreeBuilder::place(json&& value) {
  if (open_.empty()) {
    root_ = std::move(value);
    return &root_;
  }
  json& parent = *open_.back();
  if (parent.is_array()) {
    auto& elements = parent.get_ref<json::array_t&>();
    elements.push_back(std::move(value));
    return &elements.back();
  }
  *value_of_key_ = std::move(value);
  return value_of_key_;
}

} // namespace cb
