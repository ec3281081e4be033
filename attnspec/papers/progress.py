"""Wall-clock timing for the progress records of long jobs.

The experiments' loops log one INFO record per unit of work through ``logging.getLogger(__name__)``
("<unit> i of N, <parameters>: <result>, <seconds> s") and one at the end ("<N> <units> in
<seconds> s"); they write no files. A script's handler
(:func:`attnspec.workflow.io.configure_logging`) sends the records to the job's log file.
Timings appear in logs only, never in results.
"""

import time


class Stopwatch:
    """Seconds since the start and since the previous lap (``time.perf_counter``)."""

    def __init__(self) -> None:
        self._start = self._lap_start = time.perf_counter()

    def lap(self) -> float:
        """Seconds since the previous lap (or the start); the next lap starts now."""
        now = time.perf_counter()
        elapsed, self._lap_start = now - self._lap_start, now
        return elapsed

    def total(self) -> float:
        """Seconds since the start."""
        return time.perf_counter() - self._start
