"""The table of metrics the C++ tools embed (results/metrics.json): units, which direction is
better, labels and the headline metrics. Read from the source tree, beside this package."""

import json
import os
from dataclasses import dataclass

TABLE_FILE = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))), "results", "metrics.json")


@dataclass(frozen=True)
class Metric:
    name: str
    unit: str
    symbol: str
    higher_is_better: bool
    short: str
    label: str
    headline: bool

    @property
    def axis_label(self):
        """'bus bandwidth (GB/s)', 'latency (µs)'; the unit alone where there are no words, the
        words alone where there is no unit ('fraction of peak')."""
        if not self.symbol:   # a fraction or a count
            return self.label or self.name
        return f"{self.label} ({self.symbol})" if self.label else self.symbol


def _load(path):
    try:
        with open(path, encoding="utf-8") as f:
            table = json.load(f)
    except (OSError, ValueError) as e:
        raise RuntimeError(f"{path}: cannot read the metric table ({e})") from e
    return tuple(Metric(name=m["name"], unit=m["unit"], symbol=m.get("symbol") or m["unit"],
                        higher_is_better=m["better"] == "higher", short=m.get("short", ""),
                        label=m.get("label", ""), headline=bool(m.get("headline", False)))
                 for m in table["metrics"])


METRICS = _load(TABLE_FILE)
BY_NAME = {m.name: m for m in METRICS}
# The throughputs among the headline metrics, most telling first: the curves that scale.
HEADLINE_THROUGHPUTS = tuple(m.name for m in METRICS if m.headline and m.higher_is_better)
