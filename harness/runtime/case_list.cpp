#include "runtime/case_list.hpp"

#include "results/params_text.hpp"
#include "runtime/axis_values.hpp"
#include "runtime/case.hpp"

namespace cb {

void print_case_list(std::ostream& out, const RunConfig& config, std::size_t shown_instances) {
  out << "# cases of this run on the "
      << (config.backend_kind ? backend_kind_name(*config.backend_kind) : config.backend.c_str())
      << " backend" << (config.quick ? ", --quick" : "")
      << "; set an axis with --axis [CASE.]NAME=VALUES\n";
  for (const auto& c : CaseRegistry::instance().create_all()) {
    if (!config.wants_case(c->suite(), c->name()))
      continue;
    out << "\n" << c->suite() << "/" << c->name() << "\n";
    const auto axes = c->axes();
    if (axes.empty())
      out << "  axes: none (fixed parameters)\n";
    for (const auto& a : axes) {
      const auto values = axis_values(c->name(), a, config);
      const AxisSetting* set = axis_setting_for(c->name(), a, config);
      out << "  axis " << a.name << ": " << a.type_summary() << "; default "
          << a.default_summary();
      // --min-bytes names the range its two siblings complete (runtime/run_options.cpp).
      if (a.flag == "min-bytes")
        out << "; flags --min-bytes, --max-bytes, --step-factor";
      else if (!a.flag.empty())
        out << "; flag --" << a.flag;
      out << "\n    " << a.help << "; this run: "
          << (values.empty() ? std::string("worked out on this machine (see the instances)") : axis_values_text(a, values))
          << (set ? " (" + set->flag + ")" : "") << "\n";
    }
    const auto instances = c->instances(config);
    out << "  instances: " << instances.size() << "\n";
    for (std::size_t i = 0; i < instances.size() && i < shown_instances; ++i)
      out << "    " << (instances[i].empty() ? "(no parameters)" : describe_params(instances[i]))
          << "\n";
    if (instances.size() > shown_instances)
      out << "    ... and " << instances.size() - shown_instances << " more\n";
  }
}

} // namespace cb
