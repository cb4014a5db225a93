#include "links/links_case.hpp"


#include "core/stats.hpp"

namespace cb {

nlohmann::json rank_identity(const CaseContext& ctx, int comm_rank) {
  const auto world_rank =
      static_cast<std::size_t>(ctx.members[static_cast<std::size_t>(comm_rank)]);
  const auto& device = ctx.world_devices[world_rank];
  nlohmann::json identity = {{"rank", world_rank},
                             {"host", ctx.layout.host_of_rank[world_rank]},
                             {"node", ctx.layout.node_of_rank[world_rank]},
                             {"device", device.value("index", 0)},
                             {"uuid", device.value("uuid", "")}};
  add_gpu_names(device, identity);
  return identity;
}

namespace {
std::string why_no_host_links(BackendKind kind, const Communicator& comm) {
  if (kind == BackendKind::host && !comm.is_mpi()) {
    return "the host links are MPI's (shared-memory windows, send/recv) and need one process "
           "per rank: run without --single-process";
  }
  return "";
}
} // namespace

std::string LinksCase::why_not_on(const Backend& /*backend*/, BackendKind kind,
                                  const Communicator& world) const {
  return why_no_host_links(kind, world);
}

std::string LinksCase::why_unsupported(const CaseContext& ctx, bool with_transport) {
  if (const std::string why = why_no_host_links(ctx.backend_kind(), ctx.comm); !why.empty())
    return why;
  if (ctx.backend_kind() == BackendKind::host)
    return "";
  if (with_transport) {
    const auto& registry = PairTransportRegistry::instance();
    if (registry.find(ctx.backend_kind()))
      return "";
    if (std::string why = registry.why_not(ctx.backend_kind()); !why.empty())
      return why;
  }
  return "the links copies of the " + ctx.backend.name() + " backend are not built in";
}

PairTransportRegistry& PairTransportRegistry::instance() {
  static PairTransportRegistry registry;
  return registry;
}

void PairTransportRegistry::add(BackendKind backend, Factory factory) {
  factories_[backend] = factory;
}

PairTransportRegistry::Factory PairTransportRegistry::find(BackendKind backend) const {
  auto it = factories_.find(backend);
  return it == factories_.end() ? nullptr : it->second;
}

void PairTransportRegistry::add_why(BackendKind backend, Why why) {
  whys_[backend] = why;
}

std::string PairTransportRegistry::why_not(BackendKind backend) const {
  auto it = whys_.find(backend);
  return it == whys_.end() ? "" : it->second();
}

Axis LinksCase::transfer_bytes_axis() {
  return Axis::sizes("bytes", 1, 1ull << 40).defaults("64M", "8M").described("bytes per transfer");
}

std::vector<int> LinksCase::node_of_members(const CaseContext& ctx) {
  std::vector<int> out;
  for (int world_rank : ctx.members) {
    out.push_back(ctx.layout.node_of_rank[static_cast<std::size_t>(world_rank)]);
  }
  return out;
}

void LinksCase::set_check(CaseRun& run, long long wrong, const std::string& what) {
  run.record().extra["wrong_values"] = wrong;
  run.check(wrong != 0, std::to_string(wrong) + " wrong " + what);
}

} // namespace cb
