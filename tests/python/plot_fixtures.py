"""Paths the plot tests share."""

import os

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PLOTS_DIR = os.path.join(REPO, "plots")
PLOT_SCRIPT = os.path.join(PLOTS_DIR, "plot.py")
FIXTURES = os.path.join(REPO, "tests", "fixtures", "plots")
HOST_RUN = os.path.join(FIXTURES, "host_cluster.json")
GPU_RUN = os.path.join(FIXTURES, "gpu_cluster.json")
# Published USL fits, shared with the C++ fitter's tests (tests/unit/analysis/test_usl.cpp).
USL_VECTORS_FILE = os.path.join(REPO, "tests", "fixtures", "usl_vectors.json")
