"""Hand-written SPEC-006 vectors, one module per family (see ``handbuild.FAMILIES``).

Every expected value in these modules is worked out from specs/seeds/SPEC-006.txt and the
interpretation register (specs/interpretations.toml), never from an implementation; each
vector's ``comment`` shows the working. Only digests are filled in by the builder.

Convention for ``interpretations`` / ``level``: a vector lists the register entries that decide
the behaviour it targets. The entries that fix the shape of every result (INT-01 canonical JSON,
INT-02 record_hash preimage, INT-03 package_hash preimage, INT-43 receipt, INT-44 envelope,
INT-48 comparison) are listed only on the vectors that target them, not on every vector whose
package_hash happens to depend on them.
"""
