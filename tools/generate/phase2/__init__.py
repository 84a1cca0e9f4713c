"""The Phase 2 corpus (vectors/phase2-context/): hand sources, generated families, the builder,
and the comparator and invariant checks the harness will reuse (``_check``)."""
