"""``python -m toolconform`` is the ``toolconform`` command."""

import sys

from toolconform.harness.cli import main

sys.exit(main())
