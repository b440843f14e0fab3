"""What the benchmarks say of the machine they ran on (one helper for every script's report).

Example:
    >>> isinstance(cpu_name(), str)
    True
"""

from __future__ import annotations

import platform
from pathlib import Path

__all__ = ["cpu_name"]


def cpu_name() -> str:
    """The CPU's model name (Linux's /proc/cpuinfo), else what `platform` knows of it.

    Example:
        >>> cpu_name() != ""
        True
    """
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return cpu
