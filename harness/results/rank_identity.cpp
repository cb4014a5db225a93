#include "results/rank_identity.hpp"

namespace cb {
namespace {

using nlohmann::json;

constexpr const char* kIdentityKeys[] = {"device", "host",       "node",
                                         "uuid",   "nvml_index", "pci_bus_id"};

// The entry's rank, when it is a whole number.
bool rank_of(const json& entry, long long& rank) {
  if (!entry.is_object())
    return false;
  const auto it = entry.find("rank");
  if (it == entry.end() || !it->is_number_integer())
    return false;
  rank = it->get<long long>();
  return true;
}

} // namespace

RankIdentities::RankIdentities(const json& run) {
  const auto id = run.find("id");
  const auto hosts = run.find("hosts");
  if (id == run.end() || !id->is_string() || id->get_ref<const std::string&>().empty() ||
      hosts == run.end() || !hosts->is_array())
    return;
  run_id_ = id->get<std::string>();
  for (std::size_t h = 0; h < hosts->size(); ++h) {
    const json& host = (*hosts)[h];
    if (!host.is_object())
      continue;
    const auto name = host.find("host");
    const auto devices = host.find("devices");
    if (name == host.end() || !name->is_string() || devices == host.end() || !devices->is_array() ||
        name->get_ref<const std::string&>().size() > kMaxIdentityHostBytes)
      continue;
    const auto node = host.find("node");
    for (const json& device : *devices) {
      long long rank = 0;
      if (!rank_of(device, rank))
        continue;
      json identity = {{"host", *name}};
      if (node != host.end() && node->is_number_integer())
        identity["node"] = *node;
      if (const auto index = device.find("index");
          index != device.end() && index->is_number_integer())
        identity["device"] = *index;
      if (const auto uuid = device.find("uuid"); uuid != device.end() && uuid->is_string()) {
        if (uuid->get_ref<const std::string&>().size() > kMaxIdentityUuidBytes)
          continue;
        identity["uuid"] = *uuid;
      }
      // The names an operator finds a GPU by (runtime/case.hpp add_gpu_names), where known.
      if (const auto index = device.find("nvml_index");
          index != device.end() && index->is_number_integer())
        identity["nvml_index"] = *index;
      if (const auto bus = device.find("pci_bus_id");
          bus != device.end() && bus->is_string() && !bus->get_ref<const std::string&>().empty() &&
          bus->get_ref<const std::string&>().size() <= kMaxIdentityUuidBytes)
        identity["pci_bus_id"] = *bus;
      by_rank_.emplace(rank, std::move(identity)); // the first device of a rank, as plots read it
    }
  }
}

const json* RankIdentities::identity_of(const json& entry) const {
  long long rank = 0;
  if (by_rank_.empty() || !rank_of(entry, rank))
    return nullptr;
  const auto it = by_rank_.find(rank);
  return it == by_rank_.end() ? nullptr : &it->second;
}

bool RankIdentities::strip(const json& entry, json& out) const {
  const json* identity = identity_of(entry);
  if (!identity)
    return false;
  bool stripped = false;
  for (const char* key : kIdentityKeys) {
    const auto mine = entry.find(key);
    const auto header = identity->find(key);
    if (mine == entry.end() || header == identity->end() || *mine != *header)
      continue;
    if (!stripped)
      out = entry;
    out.erase(key);
    stripped = true;
  }
  return stripped;
}

void RankIdentities::restore(json& entry) const {
  const json* identity = identity_of(entry);
  if (!identity)
    return;
  for (const auto& [key, value] : identity->items()) {
    if (!entry.contains(key))
      entry[key] = value;
  }
}

bool RankIdentities::speaks_for(const Record& record) const {
  return !record.per_rank_run.empty() && record.per_rank_run == run_id_ && !by_rank_.empty() &&
         record.per_rank.is_array() && record.per_rank.size() <= by_rank_.size();
}

const json* RankIdentities::field(const json& entry, const std::string& key) const {
  const json* identity = identity_of(entry);
  if (!identity)
    return nullptr;
  const auto value = identity->find(key);
  return value == identity->end() ? nullptr : &*value;
}

json rank_field(const Record& record, const json& entry, const std::string& key) {
  if (entry.is_object()) {
    if (const auto own = entry.find(key); own != entry.end())
      return *own;
  }
  if (record.identities && record.per_rank_run == record.identities->run_id()) {
    if (const json* from_header = record.identities->field(entry, key))
      return *from_header;
  }
  return nullptr;
}

json whole_entry(const Record& record, const json& entry) {
  json whole = entry;
  if (record.identities && record.per_rank_run == record.identities->run_id())
    record.identities->restore(whole);
  return whole;
}

void RankIdentities::restore(Record& record) const {
  if (!speaks_for(record))
    return;
  for (json& entry : record.per_rank)
    restore(entry);
  record.per_rank_run.clear();
}

} // namespace cb
