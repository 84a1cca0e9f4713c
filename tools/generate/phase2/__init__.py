"""The Phase 2 corpus (vectors/phase2-context/): hand sources, generated families and the
builder. The comparator and the invariant checks are the harness's (``conformance.phase2``),
imported from there: one copy."""
