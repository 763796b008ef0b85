"""Input errors that reach a user as one line: where, which field, why."""


class InputError(ValueError):
    """Bad user input: a file, a field (or line) in it, and the reason.

    Parameters
    ----------
    source : str
        The file (or the command-line option) the bad value came from.
    where : str
        The field, key path or line number inside ``source``; may be empty.
    reason : str
        What is wrong, in a few words.
    """

    def __init__(self, source, where, reason):
        self.source = str(source)
        self.where = str(where) if where else ""
        self.reason = str(reason)
        parts = [self.source]
        if self.where:
            parts.append(self.where)
        parts.append(self.reason)
        super().__init__(": ".join(parts))
