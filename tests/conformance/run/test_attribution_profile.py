"""How the reading profile is chosen from the evidence (conformance/run/_attribution.py): the
fewest alternatives, one per entry, and between equals the one followed consistently."""

from __future__ import annotations

from conformance.run._attribution import _fewest


class TestFewest:
    def test_the_alternative_explaining_most_comes_first(self) -> None:
        """An alternative whose failures another already explains is not added."""
        single = {"INT-27/a": {"v1", "v2", "v3"}, "INT-28/b": {"v2"}, "INT-08/c": {"v4"}}
        assert _fewest(single, lambda _: 0) == ("INT-08/c", "INT-27/a")

    def test_a_tie_goes_to_the_consistent_alternative(self) -> None:
        """Two alternatives reproduce the same failures: the one that changes no passing vector
        is the reading (the other would contradict what the implementation answered)."""
        single = {"INT-20/lenient": {"v1", "v2"}, "INT-36/ignore": {"v1", "v2"}}
        changes = {"INT-20/lenient": 0, "INT-36/ignore": 30}
        assert _fewest(single, changes.__getitem__) == ("INT-20/lenient",)

    def test_one_alternative_per_entry(self) -> None:
        """A second alternative of an entry already in the profile is never added."""
        single = {"INT-36/a": {"v1"}, "INT-36/b": {"v2"}}
        assert len(_fewest(single, lambda _: 0)) == 1

    def test_nothing_explained_nothing_chosen(self) -> None:
        """No evidence, no profile."""
        assert _fewest({"INT-27/a": set()}, lambda _: 0) == ()
