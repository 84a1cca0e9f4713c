"""Generators of the vector corpus (``vectors/``); ``handbuild`` turns the hand-written sources."""
