"""The typed_toolsets mypy plugin: every Toolset definition mistake fails the type check.

Enable it with ``plugins = typed_toolsets.mypy`` (``mypy.ini``/``setup.cfg``) or
``plugins = ["typed_toolsets.mypy"]`` under ``[tool.mypy]`` (``pyproject.toml``). It reports,
on the line of the declaration, what `typed_toolsets.ToolsetDefinitionError` would raise when the
module is imported, in the same words (the same `typed_toolsets.rules.problems.Problem` records),
plus what the import cannot see (``Cls.to_tools()`` calls, ambiguous unions) and, with its own
code, what the plugin cannot read statically:

=============================  ==================================================================
error code                     problem
=============================  ==================================================================
``toolset-unknown-method``     ``tool("name")`` names no method of the class or its bases
``toolset-not-a-method``       the name is an attribute, property, static/class method, ...
``toolset-duplicate-name``     two exports share a final name, or one method is declared twice
``toolset-invalid-name``       a final name does not match ``^[A-Za-z_][A-Za-z0-9_-]{0,63}$``
``toolset-signature``          positional-only, ``*args``, ``**kwargs`` or unannotated parameter
``toolset-param-type``         a parameter type has no JSON Schema, or Python cannot resolve it
``toolset-init``               ``Cls.to_tools()`` where ``Cls()`` needs arguments or is abstract
``toolset-ambiguous-union``    a JSON value could match two variants of a union
``toolset-unchecked``          a declaration the plugin cannot read, so cannot check (its own)
=============================  ==================================================================

All of them are sub-codes of ``toolset``: ``disable_error_code = toolset`` silences every one,
``disable_error_code = toolset-ambiguous-union`` just that one (mypy >= 1.19), and
``# type: ignore[toolset-param-type]`` one line.

Types registered at run time with `typed_toolsets.register_type` are unknown to mypy; list them
in the config so the plugin accepts them::

    [typed_toolsets.mypy]                      # mypy.ini / setup.cfg
    registered_types = decimal.Decimal, myapp.money.Money

    [tool.typed_toolsets.mypy]                 # pyproject.toml
    registered_types = ["decimal.Decimal", "myapp.money.Money"]

How it works (see ``research/mypy_plugin.md``): during semantic analysis a base-class hook records
each Toolset subclass's declarations (`typed_toolsets.plugin.declarations`); at type-check time a
hook on mypy's simulated ``__init_subclass__`` call checks the class once it is fully known
(`typed_toolsets.plugin.classes`). This module is the entry point; the implementation is the
`typed_toolsets.plugin` package, which imports only mypy, the standard library and the
standard-library-only `typed_toolsets.rules`.

User documentation, including what the plugin cannot see: ``docs/mypy_plugin.md``.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Final

from mypy.nodes import MypyFile, TypeInfo
from mypy.options import Options
from mypy.plugin import ClassDefContext, MethodContext, Plugin, ReportConfigContext
from mypy.types import Type

from typed_toolsets._version import __version__ as _release
from typed_toolsets.plugin.calls import check_proxy_call as _check_proxy_call
from typed_toolsets.plugin.calls import check_to_tools_access as _check_to_tools_access
from typed_toolsets.plugin.classes import check_class_hook as _check_class_hook
from typed_toolsets.plugin.codes import ERROR_CODES, TOOLSET_CODE
from typed_toolsets.plugin.config import CONFIG_SECTION, read_registered_types, sources_digest
from typed_toolsets.plugin.declarations import record_class as _record_class
from typed_toolsets.plugin.declarations import record_mixin as _record_mixin
from typed_toolsets.plugin.fullnames import (
    INIT_SUBCLASS,
    PROXY,
    TO_TOOLS_GET,
    TOOL_FUNCTION,
    TOOL_SPEC,
    TOOLSET,
)
from typed_toolsets.plugin.metadata import META, META_VERSION

#: The release, and the registered types when some are configured. mypy's daemon reads it right
#: after building the plugin, and ``dmypy run`` restarts when it changes: the config section only
#: the plugin reads is not part of mypy's options, whose changes restart it too.
__version__ = _release

#: How `Toolset.proxy`'s fullname ends, for any Toolset class it is read from.
_PROXY_SUFFIX: Final = PROXY[PROXY.rindex(".") :]

__all__ = [
    "CONFIG_SECTION",
    "ERROR_CODES",
    "META",
    "META_VERSION",
    "PROXY",
    "TOOLSET",
    "TOOLSET_CODE",
    "TOOL_FUNCTION",
    "TOOL_SPEC",
    "TO_TOOLS_GET",
    "TypedToolsetsPlugin",
    "plugin",
]


class TypedToolsetsPlugin(Plugin):
    """Records Toolset declarations during semantic analysis and checks them when type checking."""

    def __init__(self, options: Options) -> None:
        super().__init__(options)
        self._registered = read_registered_types(options.config_file)
        global __version__  # see its comment
        __version__ = _release
        if self._registered:
            __version__ += "+registered." + ".".join(sorted(self._registered))
        self._config_data: dict[str, object] = {
            "version": _release,
            "meta": META_VERSION,
            "sources": sources_digest(),
            "registered_types": sorted(self._registered),
        }

    # The hooks are looked up in this module's namespace when mypy asks for them (the plugin
    # benchmark wraps them there to time them).

    def get_base_class_hook(self, fullname: str) -> Callable[[ClassDefContext], None] | None:
        """Record the declarations of every class whose direct base is a Toolset (or Toolset)."""
        registered = self._registered
        if fullname == TOOLSET:
            return lambda ctx: _record_class(ctx, registered)
        sym = self.lookup_fully_qualified(fullname)
        if sym is not None and isinstance(sym.node, TypeInfo) and sym.node.has_base(TOOLSET):
            return lambda ctx: _record_class(ctx, registered)
        return None

    def get_customize_class_mro_hook(
        self, fullname: str
    ) -> Callable[[ClassDefContext], None] | None:
        """Record what a class that is not a Toolset (a mixin) gives a Toolset combining it."""
        if fullname.partition(".")[0] in sys.stdlib_module_names:
            return None  # most classes mypy reads are typeshed's: none is a Toolset mixin
        return _record_mixin

    def get_method_hook(self, fullname: str) -> Callable[[MethodContext], Type] | None:
        """Check a class once it is defined; check ``Cls.to_tools()`` call sites."""
        if fullname == TO_TOOLS_GET:
            return _check_to_tools_access
        if fullname.endswith(_PROXY_SUFFIX):
            # `Toolset.proxy(...)`, or `Sub.proxy(...)`: keyed by the class it is read from.
            sym = self.lookup_fully_qualified(fullname[: -len(_PROXY_SUFFIX)])
            if sym is not None and isinstance(sym.node, TypeInfo) and sym.node.has_base(TOOLSET):
                return _check_proxy_call
        if fullname.endswith(INIT_SUBCLASS) and fullname != "builtins.object.__init_subclass__":
            # mypy simulates `Base.__init_subclass__(**class keywords)` after each class body
            # (TypeChecker.check_init_subclass), with the first base in the MRO that defines it:
            # `Toolset`, or a class before it in the MRO. `object` comes after `Toolset`.
            registered = self._registered
            return lambda ctx: _check_class_hook(ctx, registered)
        return None

    def get_additional_indirect_deps(self, file: MypyFile) -> set[str]:
        """Make a module that defines Toolset subclasses depend on every ancestor's module.

        A subclass checks names against methods of all its ancestors, but a bare ``class
        Leaf(Mid)`` gives mypy's coarse incremental mode no dependency on ``Mid``'s own bases, so
        editing a grandparent would leave the leaf's cached verdict stale (mypy >= 2.4).
        """
        modules: set[str] = set()
        if file.is_stub:
            return modules
        for _, sym, _ in file.local_definitions():
            node = sym.node
            if isinstance(node, TypeInfo) and META in node.metadata:
                modules.update(base.module_name for base in node.mro[1:])
        modules.discard(file.fullname)
        return modules

    def report_config_data(self, ctx: ReportConfigContext) -> object:
        """Invalidate cached results when the plugin, its rules or its config change."""
        return self._config_data


def plugin(version: str) -> type[Plugin]:
    """Entry point called by mypy with its version string."""
    del version  # every supported mypy (>= 1.20) has the hooks used here
    return TypedToolsetsPlugin
