"""Hand-written Phase 2 vectors, one module per family; each exports DESCRIPTION and VECTORS."""
