// load_results: the file's text, read a megabyte at a time, parsed as a stream of events
// (nlohmann's SAX interface), never held whole. The records array is read one record at a time:
// each record is built as a small tree, validated and moved into its Record, and the tree
// dropped, so that a whole cluster's file never exists as one tree beside its records (the tree
// of every per-rank figure was as large as the records).
// Everything else builds the tree results_from_top_level checks, with the records array empty;
// the records are handed over when the checks reach them, so the errors come in the order
// results_from_json gives them.
#include <cstddef>
#include <exception>
#include <iterator>
#include <memory>
#include <optional>
#include <vector>

#include "core/text_file.hpp"
#include "results/json_file.hpp"
#include "results/json_tree_builder.hpp"
#include "results/results_io.hpp"
#include "results/results_journal.hpp"

namespace cb {
// Named, not anonymous: ResultsDocument holds one (a type of internal linkage may not be its
// member).
namespace results_reading {

using nlohmann::json;

// A file's characters as an input iterator range for nlohmann's parser, read a chunk at a time.
class FileChars {
public:
  explicit FileChars(TextFileStream& file) : file_(file), chunk_(kChunkBytes) { fill(); }

  class iterator {
  public:
    using iterator_category = std::input_iterator_tag;
    using value_type = char;
    using difference_type = std::ptrdiff_t;
    using pointer = const char*;
    using reference = const char&;

    iterator() = default;
    explicit iterator(FileChars* chars) : chars_(chars) {}
    reference operator*() const { return chars_->chunk_[chars_->at_]; }
    iterator& operator++() {
      chars_->next();
      return *this;
    }
    // Only an iterator at the end equals the end: one range, read once.
    bool operator==(const iterator& other) const { return ended() == other.ended(); }
    bool operator!=(const iterator& other) const { return !(*this == other); }

  private:
    bool ended() const { return !chars_ || chars_->at_ == chars_->size_; }
    FileChars* chars_ = nullptr;
  };

  iterator begin() { return iterator(this); }
  iterator end() { return iterator(); }

private:
  static constexpr std::size_t kChunkBytes = std::size_t{1} << 20;
  void next() {
    if (++at_ == size_)
      fill();
  }
  void fill() {
    size_ = file_.read(chunk_.data(), chunk_.size());
    at_ = 0;
  }

  TextFileStream& file_;
  std::vector<char> chunk_;
  std::size_t at_ = 0, size_ = 0;
};

class ResultsEvents {
public:
  ResultsEvents(json& top, const std::string& source) : top_(top, source), source_(source) {}

  bool null() { return scalar(nullptr); }
  bool boolean(bool v) { return scalar(v); }
  bool number_integer(json::number_integer_t v) { return scalar(v); }
  bool number_unsigned(json::number_unsigned_t v) { return scalar(v); }
  bool number_float(json::number_float_t v, const json::string_t&) { return scalar(v); }
  bool string(json::string_t& v) { return scalar(std::move(v)); }
  bool binary(json::binary_t& v) { return target().binary(v); } // never in JSON text

  bool start_object(std::size_t n) {
    begin_value();
    deeper();
    return target().start_object(n);
  }
  bool end_object() {
    return end([](JsonTreeBuilder& d) { return d.end_object(); });
  }

  bool start_array(std::size_t n) {
    const bool records_array = depth_ == 1 && next_is_records_;
    begin_value();
    deeper();
    if (records_array) {
      in_records_ = true;
      return top_.start_array(n);
    }
    return target().start_array(n);
  }
  bool end_array() {
    return end([](JsonTreeBuilder& d) { return d.end_array(); });
  }

  bool key(json::string_t& k) {
    if (depth_ == 1 && !element_) {
      // A second "records" is refused by the builder's key() below, as any repeated key is.
      next_is_records_ = k == "records";
      if (next_is_records_)
        restart_records();
    }
    return target().key(k);
  }

  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& e) {
    throw not_valid_json(source_, e);
  }

  // The records read, or the first problem with one of them (rethrown in its turn).
  void hand_over(std::vector<Record>& out) {
    if (problem_)
      std::rethrow_exception(problem_);
    out = std::move(records_);
  }

private:
  JsonTreeBuilder& target() { return element_ ? element_->dom : top_; }

  // The text is parsed as it is read, so the nesting bound is counted here, before the deeper
  // level is built (json_file.hpp: the trees' copies and comparisons recurse on depth).
  void deeper() {
    if (++depth_ > kMaxJsonDepth)
      throw nested_too_deep(source_);
  }

  // A value starts at the current depth: at the records array's level, it is a record.
  void begin_value() {
    if (depth_ == 1)
      next_is_records_ = false;
    if (in_records_ && depth_ == 2 && !element_)
      element_.emplace(source_ + ": records[" + std::to_string(index_) + "]");
  }

  template <class Value> bool scalar(Value&& v) {
    const bool record = in_records_ && depth_ == 2 && !element_;
    if (depth_ == 1)
      next_is_records_ = false;
    if (record) {
      finish_record(json(std::forward<Value>(v))); // not an object: the check says so
      return true;
    }
    return call_scalar(target(), std::forward<Value>(v));
  }

  static bool call_scalar(JsonTreeBuilder& d, std::nullptr_t) { return d.null(); }
  static bool call_scalar(JsonTreeBuilder& d, bool v) { return d.boolean(v); }
  static bool call_scalar(JsonTreeBuilder& d, json::number_integer_t v) {
    return d.number_integer(v);
  }
  static bool call_scalar(JsonTreeBuilder& d, json::number_unsigned_t v) {
    return d.number_unsigned(v);
  }
  static bool call_scalar(JsonTreeBuilder& d, json::number_float_t v) {
    return d.number_float(v, {});
  }
  static bool call_scalar(JsonTreeBuilder& d, json::string_t&& v) { return d.string(v); }

  template <class End> bool end(End&& close) {
    --depth_;
    if (element_) {
      close(element_->dom);
      if (depth_ == 2) {
        json record = std::move(element_->value);
        element_.reset();
        finish_record(std::move(record));
      }
      return true;
    }
    if (in_records_ && depth_ == 1)
      in_records_ = false;
    return close(top_);
  }

  void restart_records() {
    records_.clear();
    problem_ = nullptr;
    index_ = 0;
  }

  void finish_record(json&& j) {
    const std::size_t i = index_++;
    if (problem_)
      return; // the file is refused: the rest of the records are parsed, not kept
    try {
      records_.push_back(
          record_from_json(std::move(j), source_ + ": records[" + std::to_string(i) + "]"));
    } catch (...) {
      problem_ = std::current_exception();
      records_ = {};
    }
  }

  // One record as it is parsed: its tree and the builder filling it.
  struct Element {
    explicit Element(std::string where) : dom(value, std::move(where)) {}
    json value;
    JsonTreeBuilder dom;
  };

  JsonTreeBuilder top_;
  std::string source_;
  int depth_ = 0;
  bool next_is_records_ = false; // the last key of the top-level object was "records"
  bool in_records_ = false;      // inside the top-level records array
  std::optional<Element> element_;
  std::vector<Record> records_;
  std::exception_ptr problem_;
  std::size_t index_ = 0;
};

} // namespace results_reading

using nlohmann::json;
using results_reading::ResultsEvents;

struct ResultsDocument::Reading {
  Reading(json& top, const std::string& path) : events(top, path) {}
  ResultsEvents events;
};

ResultsDocument::ResultsDocument(const std::string& path)
    : path_(path), reading_(std::make_unique<Reading>(top_, path)) {
  // The file in chunks, parsed as they come: a whole cluster's file (260 MB at 1,024 nodes of 8
  // GPUs) is never held as text beside the records it becomes.
  TextFileStream file(path);
  results_reading::FileChars chars(file);
  try {
    json::sax_parse(chars.begin(), chars.end(), &reading_->events);
  } catch (const json::exception& e) {
    throw not_valid_json(path, e);
  }
}

ResultsDocument::~ResultsDocument() = default;

ResultsFile ResultsDocument::results() {
  ResultsFile results = reading_json(path_, [&] {
    return results_from_top_level(top_, path_, [&](const json&, std::vector<Record>& out) {
      reading_->events.hand_over(out);
    });
  });
  merge_results_journal(results, path_);
  return results;
}

ResultsFile load_results(const std::string& path) {
  return ResultsDocument(path).results();
}

} // namespace cb
