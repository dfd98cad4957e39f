"""The ``typed-toolsets`` command line (also ``python -m typed_toolsets``).

May import every other layer; nothing imports it but ``__main__`` and the console script.
"""
