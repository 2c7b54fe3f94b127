"""The exceptions solvo raises. Every one is a ``solvo.Error``; bad input is also a
``ValueError`` and a refused table also a ``MemoryError``, so the usual ``except``
clauses work. The message is the one the command line prints for the same mistake."""


class Error(Exception):
    """Anything solvo could not do."""


class InputError(Error, ValueError):
    """Bad input: a position, a move, an option value or a file (the message says which
    and where)."""


class SearchError(Error):
    """A search that could not run or finish as asked."""


class StoreError(Error):
    """A solution store that cannot be opened or read."""


class EngineError(Error):
    """A question the engine cannot answer."""


class OutOfMemoryError(Error, MemoryError):
    """The memory of a search table was refused; a smaller ``hash_mb`` may do."""
