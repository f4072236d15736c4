"""One module per ``pyramid`` subcommand.

Each module defines ``HELP`` (one line), ``add_arguments(parser)`` and
``run(args) -> int`` (the exit status). ``camelhost.cli`` imports a module only
when its command is used, so a slow import (Textual) never slows the others.
"""
