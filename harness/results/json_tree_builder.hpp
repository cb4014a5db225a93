#pragma once
// Builds a JSON tree from nlohmann's parse events, as nlohmann's own builder does, except that an
// object naming a key twice is refused. nlohmann keeps the last value of a repeated key, so a file
// with two "median_s" in one record would be read as whichever came last, silently: no file
// clusterbench writes repeats a key, and a hand-edited or concatenated one that does is bad input.
//
// Other tools' output is theirs: fio 2.x prints some keys twice in one object, and means
// something by it. A reader of such output gives a RepeatedKeyMerge, which decides what the
// object keeps; without one a repeated key is refused.
//
// The handler methods are the ones nlohmann::json::sax_parse calls; the results loader calls them
// itself for the parts of a file it builds as trees.
#include <functional>
#include <list>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace cb {

// Called for a key an object names again, once its later value is whole: `object` holds the
// earlier value under `key`, `object_name` is the key the object itself sits under ("" for the
// document or an array's element). It leaves in `object` what the object means, or throws
// InputError when the repeat has no meaning it knows.
using RepeatedKeyMerge = std::function<void(nlohmann::json& object, const std::string& object_name,
                                            const std::string& key, nlohmann::json later)>;

class JsonTreeBuilder {
public:
  using json = nlohmann::json;

  // `root` receives the document; `source` names it in the error ("PATH" or "PATH: records[3]").
  JsonTreeBuilder(json& root, std::string source, RepeatedKeyMerge merge = {})
      : root_(root), source_(std::move(source)), merge_(std::move(merge)) {}

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

  // InputError "SOURCE: key 'K' appears twice in one object ..." (without a merge).
  bool key(json::string_t& k);

  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& e);

private:
  // A repeated key's later value, built here until it is whole and handed to the merge.
  struct Repeat {
    json* object;
    std::string object_name;
    std::string key;
    json value;
  };

  // Places `value` where the document expects the next value: the root, the next element of the
  // open array, or the open object's last key. Returns where it went.
  json* place(json&& value);
  bool put(json&& value) {
    const json* at = place(std::move(value));
    if (!repeats_.empty() && at == &repeats_.back().value)
      merge_repeat();
    return true;
  }
  bool open(json::value_t type) {
    const bool in_object = merge_ && !open_.empty() && open_.back()->is_object();
    open_.push_back(place(json(type)));
    open_names_.push_back(in_object ? last_key_ : std::string());
    return true;
  }
  bool close() {
    const json* closed = open_.back();
    open_.pop_back();
    open_names_.pop_back();
    if (!repeats_.empty() && closed == &repeats_.back().value)
      merge_repeat();
    return true;
  }
  void merge_repeat();

  json& root_;
  std::string source_;
  RepeatedKeyMerge merge_;
  std::vector<json*> open_;             // the arrays and objects not yet closed, innermost last
  std::vector<std::string> open_names_; // the key each sits under ("" in an array or at the root)
  std::list<Repeat> repeats_;           // later values being built (a list: their addresses hold)
  std::string last_key_;
  json* value_of_key_ = nullptr;
};

} // namespace cb
