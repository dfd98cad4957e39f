"""Typing examples: never executed, only type checked.

mypy (with the ``typed_toolsets.mypy`` plugin, ``tests/typing/mypy.ini``) and basedpyright
(strict) must both accept every module here with zero errors: ``public_api`` pins the types of
the public API with ``assert_type``, ``toolsets`` is a realistic module the plugin must not
complain about. Mistakes each checker must report live in ``tests/mypy_plugin/cases`` (mypy)
and ``tests/typing_negative`` (pyright).
"""
