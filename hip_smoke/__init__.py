"""hip_smoke: prove translated programs compile with real hipcc for gfx942 and
behave like the CUDA originals.  See docs/smoke.md."""
