"""The one error type the CLI turns into ``pyramid: message`` and a non-zero exit."""


class CliError(Exception):
    """A user-facing failure: bad arguments, a missing port, a file that can't be read.

    ``exit_code``: process exit status (default 1; 2 for usage errors).
    """

    def __init__(self, message, exit_code=1):
        Exception.__init__(self, message)
        self.exit_code = exit_code
