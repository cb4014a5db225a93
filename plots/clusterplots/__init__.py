"""Plots of clusterbench results files: scaling efficiency with USL fits, bus bandwidth against
message size, link matrices, storage readers, and overlays of two runs."""
