"""One module per ``toolconform`` subcommand; each has ``add_parser`` and ``run``."""
