"""``python -m vidcc.validate``: the differential suite against ns-2 (see vidcc.validate.suite)."""

import sys

from vidcc.validate.suite import main

sys.exit(main())
