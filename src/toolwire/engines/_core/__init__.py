"""What every job shares: results (:class:`Problem`, :class:`Report`), protocol detection, the
events engines report with, atomic files, redaction, and the process pool.

Each module here is imported directly (``toolwire.engines._core._results``) by the job packages;
none of them imports a job package.
"""
