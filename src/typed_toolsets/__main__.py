"""``python -m typed_toolsets``: the ``typed-toolsets`` command line."""

from typed_toolsets._cli import main

raise SystemExit(main())
