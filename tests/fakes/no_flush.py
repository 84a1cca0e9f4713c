"""Forgets to flush stdout (bowtie#403): its replies sit in a buffer, so nothing arrives."""

import io
import sys

from _fake_protocol import serve

# block-buffered whatever PYTHONUNBUFFERED says: the reply never leaves the process
sys.stdout = io.TextIOWrapper(io.BufferedWriter(io.FileIO(1, "w", closefd=False), 1 << 16))
serve(flush=False)
