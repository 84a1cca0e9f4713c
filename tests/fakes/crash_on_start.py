"""Crashes before the handshake, with a message on stderr and exit status 3."""

import sys

sys.stderr.write("boom: cannot initialise the controller\n")
sys.exit(3)
