"""``python -m privlab`` runs the command line."""

import sys

from privlab.cli import main

sys.exit(main())
