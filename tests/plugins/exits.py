"""A plug-in that ends the process when imported (an entry point must not end the host)."""

import sys

sys.exit(3)
