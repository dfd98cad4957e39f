"""``python -m typed_toolsets``: the ``typed-toolsets`` command line."""

from typed_toolsets.cli.main import main

raise SystemExit(main())
