"""A correct implementation: answers every request from the table."""

from _fake_protocol import serve

serve()
