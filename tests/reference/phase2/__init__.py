"""Tests of the Phase 2 reference engine, its corpus and its tooling (profile phase2-context/1)."""
