"""Puts plots/ on the import path so the tests can import the clusterplots package."""

import sys

from plot_fixtures import PLOTS_DIR

if PLOTS_DIR not in sys.path:
    sys.path.insert(0, PLOTS_DIR)
