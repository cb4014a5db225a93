#pragma once
// Builds a JSON tree from nlohmann's parse events, as nlohmann's own builder does, except that an
// object naming a key twice is refused. nlohmann keeps the last value of a repeated key, so a file
// with two "median_s" in one record would be read as whichever came last, silently: no file
// clusterbench writes repeats a key, and a hand-edited or concatenated one that does is bad input.
//
// The handler methods are the ones nlohmann::json::sax_parse calls; the results loader calls them
// itself for the parts of a file it builds as trees.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace cb {

class JsonTreeBuilder {
public:
  using json = nlohmann::json;

  // `root` receives the document; `source` names it in the error ("PATH" or "PATH: records[3]").
  JsonTreeBuilder(json& root, std::string source) : root_(root), source_(std::move(source)) {}

  bool null() { return put(json(nullptr)); }
  bool boolean(bool v) { return put(json(v)); }
  bool number_integer(json::number_integer_t v) { return put(json(v)); }
  bool number_unsigned(json::number_unsigned_t v) { return put(json(v)); }
  bool number_float(json::number_float_t v, const json::string_t&) { return put(json(v)); }
  bool string(json::string_t& v) { return put(json(std::move(v))); }
  bool binary(json::binary_t& v) { return put(json(json::binary_t(std::move(v)))); }

  bool start_object(std::size_t) { return open(json::value_t::object); }
  bool start_array(std::size_t) { return open(json::value_t::array); }
  bool end_object() { return close(); }
  bool end_array() { return close(); }

  // InputError "SOURCE: key 'K' appears twice in one object ...".
  bool key(json::string_t& k);

  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& e);

private:
  // Places `value` where the document expects the next value: the root, the next element of the
  // open array, or the open object's last key. Returns where it went.
  json* place(json&& value);
  bool put(json&& value) {
    place(std::move(value));
    return true;
  }
  bool open(json::value_t type) {
    open_.push_back(place(json(type)));
    return true;
  }
  bool close() {
    open_.pop_back();
    return true;
  }

  json& root_;
  std::string source_;
  std::vector<json*> open_; // the arrays and objects not yet closed, innermost last
  json* value_of_key_ = nullptr;
};

} // namespace cb
