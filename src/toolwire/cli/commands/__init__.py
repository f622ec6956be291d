"""The ``toolwire`` verbs, one module each: ``run(args)`` does the verb and returns its exit code.

Each module is imported when its verb runs (:func:`toolwire.cli.main`), so a plain ``check`` loads
``check`` alone.  A verb reads its arguments, calls the engines, and hands their results or
events to the handlers (:mod:`toolwire.cli.handlers`), which print and write.
"""

__all__: list[str] = []
