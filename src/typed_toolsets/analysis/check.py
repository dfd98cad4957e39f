"""``typed-toolsets check``: the mypy plugin's verdicts, found at run time.

For projects that use pyright (which has no plugins) or no type checker, this imports the target
modules (`typed_toolsets.analysis.targets`) and reports every definition problem the mypy plugin
reports, on the same lines and in the same words (the same
`typed_toolsets.rules.problems.Problem` records):

- problems raised as `ToolsetDefinitionError` while a module is imported (checks 1 to 6). The
  import stops at the first broken class, so the module is then run again statement by
  statement (each class statement on its own) to find the problems of the classes after it;
- annotations that name something defined later, resolved now (what ``to_tools()`` would do);
- ambiguous unions (check 8), with `typed_toolsets.analysis.ambiguity`;
- ``Cls.to_tools()`` call sites (check 7), found in the target modules' source with `ast`:
  ``X.to_tools`` where ``X`` is a name (or dotted name) the module binds at top level to a
  Toolset class whose constructor needs arguments. Names bound inside a function (parameters,
  assignments) are not resolved, so ``cls.to_tools()`` in a classmethod is never reported.

Locations follow the plugin (`typed_toolsets.analysis.sources` finds them): a declaration's own
line for problems of the declaration, the parameter's line for problems of a parameter of a
method defined in the same file, and the ``class`` line for inherited declarations. A problem
of the ``exports`` value is told on its assignment, and one of an item of it (not a
``tool(...)``) on the item's own line.
"""

from __future__ import annotations

import ast
import sys
import typing
from collections.abc import Sequence
from typing import Final, Literal

import attrs

from typed_toolsets._toolset import Toolset
from typed_toolsets.definition.classes import (
    check_present,
    class_info,
    exports_of,
    init_problem,
)
from typed_toolsets.definition.declarations import ToolSpec
from typed_toolsets.definition.errors import ToolsetDefinitionError
from typed_toolsets.rules.kinds import CODE_PREFIX, PROBLEM_CODES
from typed_toolsets.rules.names import class_display_name
from typed_toolsets.rules.problems import Problem
from typed_toolsets.rules.problems import problem as make_problem

from .ambiguity import find_ambiguity
from .origins import error_origin, failed_class_read
from .sources import (
    ClassSource,
    SourceIndex,
    attribute_accesses,
    read_source,
    resolve,
    root_name,
)
from .targets import (
    LoadedModule,
    TargetError,
    load_module,
    no_class,
    no_toolsets,
    resolve_class,
    shown_path,
    split_target,
    toolset_classes,
)

__all__ = ["CheckResult", "Finding", "TargetError", "located", "run_check"]

#: Problems of a declaration itself, reported on the declaration's line.
_DECLARATION_CODES: Final = frozenset(
    CODE_PREFIX + code
    for code in ("unknown-method", "not-a-method", "duplicate-name", "invalid-name", "inline")
)
_INIT: Final = CODE_PREFIX + "init"
#: Problems of the value of `exports` itself: told on its assignment.
_EXPORTS_KINDS: Final = frozenset(
    {"exports-not-a-tuple", "exports-one-tool", "exports-item", "exports-method"}
)
#: Problems of one item of `exports`, in the tuple's order: told on the item's line.
_ITEM_KINDS: Final = frozenset({"exports-item", "exports-method"})
#: `Toolset.proxy()` of a method the class does not export: the call's problem, not the class's.
_NOT_EXPORTED: Final = "not-exported"
#: Before 3.11, Python puts an error raised applying a decorator at its function's `def` line
#: (later, and the plugin, at the decorator's).
_DECORATORS_AT_DEF: Final = sys.version_info < (3, 11)
_NAME_CODES: Final = frozenset(CODE_PREFIX + code for code in ("duplicate-name", "invalid-name"))
_NOT_A_METHOD: Final = CODE_PREFIX + "not-a-method"


@attrs.frozen
class Finding:
    """One problem found by ``check``, where it is reported.

    Attributes:
        path: The file it is reported in (its absolute path).
        line: The line, 1-based (0 when unknown).
        problem: The problem, as the runtime and the mypy plugin report it.
    """

    path: str
    line: int
    problem: Problem

    @property
    def code(self) -> str:
        """The error code, ``toolset-<code>``."""
        return self.problem.code

    @property
    def toolset(self) -> str | None:
        """The Toolset class's qualified name (None for ``tool()``'s own argument errors)."""
        return self.problem.toolset

    @property
    def method(self) -> str | None:
        """The method concerned, for problems of one export."""
        return self.problem.method

    @property
    def parameter(self) -> str | None:
        """The parameter concerned, if any."""
        return self.problem.parameter

    @property
    def message(self) -> str:
        """What is wrong, as the runtime words it (without the code)."""
        return self.problem.message

    @property
    def severity(self) -> Literal["error", "warning"]:
        """``error``, or ``warning`` for ambiguous unions."""
        return self.problem.severity

    def format(self) -> str:
        """``path:line: severity: message  [toolset-code]``, like mypy's output.

        As mypy shows it, the path is relative to the current directory for a file inside it.
        """
        return (
            f"{shown_path(self.path)}:{self.line}: {self.severity}: {self.message}  [{self.code}]"
        )


@attrs.frozen
class CheckResult:
    """What ``check`` found.

    Attributes:
        findings: Every problem, sorted by file and line.
        classes: The qualified names of the Toolset classes checked, one per class (two
            classes of one name, in two modules or scopes, are two).
        unchecked: Why each target that could not be checked was not (it cannot be imported,
            or has no such class), one line each, in the targets' order.
    """

    findings: tuple[Finding, ...]
    classes: tuple[str, ...]
    unchecked: tuple[str, ...] = ()


def _lookup_owner(cls: type, name: str) -> type | None:
    for klass in cls.__mro__:
        if name in vars(klass):
            return klass
    return None


def _copied(cls: type, method: str) -> bool:
    """Whether *cls*'s `exports` holds its nearest base's declaration of *method* itself.

    ``exports = Base.exports`` repeats the base's declarations: they keep meaning what they
    meant, inherited (the plugin merges them so too), and a problem the class causes is told
    where it causes it, not on the copy.
    """
    own = vars(cls).get("exports")
    if not isinstance(own, (tuple, list)):
        return False
    items = typing.cast("tuple[object, ...] | list[object]", own)
    mine = [s for s in items if isinstance(s, ToolSpec) and s.method_name == method]
    for klass in cls.__mro__[1:]:
        info = class_info(klass)
        theirs = [s for s in info.own_specs if s.method_name == method] if info else []
        if theirs:
            return bool(mine) and mine[-1] is theirs[-1]
    return False


@attrs.frozen
class _Declared:
    """Where a method of a class is declared.

    Attributes:
        by: The nearest class in the MRO whose own declarations include it.
        default_name: Whether one of them leaves its tool name to ``toolset_name``.
    """

    by: type
    default_name: bool


def _declarations(cls: type) -> dict[str, _Declared]:
    """Each method declared by *cls* or a Toolset base, with where (`_Declared`), in one pass."""
    found: dict[str, _Declared] = {}
    for klass in reversed(cls.__mro__):  # the nearest class's declarations written last
        info = class_info(klass)
        if info is None:
            continue
        mine: dict[str, _Declared] = {}
        for spec in info.own_specs:
            seen = mine.get(spec.method_name)
            default_name = spec.tool_name is None or (seen is not None and seen.default_name)
            mine[spec.method_name] = _Declared(klass, default_name)
        found.update(mine)
    return found


class _Checker:
    def __init__(self, disabled: frozenset[str]) -> None:
        self.disabled = disabled
        self.findings: list[Finding] = []
        self._found: set[Finding] = set()
        self.classes: list[str] = []
        self._seen: set[object] = set()
        self._indexes: dict[str, SourceIndex] = {}
        # Per class: looked up once, not per export (a scan each was quadratic in the exports).
        self._declared: dict[type, dict[str, _Declared]] = {}
        self._item_lines: dict[type, list[int]] = {}

    def declared(self, cls: type, method: str) -> _Declared | None:
        """Where *cls*'s declaration of *method* is (the nearest in its MRO), if any."""
        table = self._declared.get(cls)
        if table is None:
            table = self._declared[cls] = _declarations(cls)
        return table.get(method)

    # -- locations

    def index(self, path: str, namespace: dict[str, object] | None = None) -> SourceIndex:
        found = self._indexes.get(path)
        if found is None:
            found = SourceIndex(path, read_source(path) or "", namespace or {})
            self._indexes[path] = found
        return found

    @staticmethod
    def file_of(toolset: type) -> str | None:
        module = sys.modules.get(toolset.__module__)
        path = getattr(module, "__file__", None)
        return path if isinstance(path, str) else None

    def locate(self, cls: type, path: str, found: Problem, repeat: int) -> int:
        """The line the plugin would report *found* on (see the module docstring)."""
        index = self.index(path)
        source = index.classes.get(cls.__qualname__)
        if source is None:
            return 0
        method = found.method
        if method is None:
            if found.kind in _ITEM_KINDS:
                lines = self.item_lines(cls, source)
                if repeat < len(lines):
                    return lines[repeat]
            if found.kind in _EXPORTS_KINDS:  # where mypy reports the assignment's type
                return source.assigned.get("exports", source.line)
            if found.kind == "toolset-name-type":  # where the class sets it, if it does
                return source.assigned.get("toolset_name", source.line)
            return source.line
        own = source.decl_lines(method)
        decl_line = (own[min(repeat, len(own) - 1)] if repeat else own[-1]) if own else None
        owner = _lookup_owner(cls, method)
        if found.code in _DECLARATION_CODES:
            # A repeat is told where it is made, a `Base.exports` it copies included (`decls`
            # lists a copy's declarations on its line, in the run time's order).
            repeated = found.kind == "declared-twice"
            if decl_line is not None and (repeated or not _copied(cls, method)):
                return decl_line
            return self.cause_line(cls, source, found, owner)

        value = vars(owner).get(method) if owner is not None else None
        qualname = getattr(value, "__qualname__", None)
        if getattr(value, "__module__", None) == cls.__module__ and isinstance(qualname, str):
            # The function's own name: a method alias (`search = find`) is reported on `find`.
            function = index.function(qualname)
            if function is not None:
                if found.parameter is not None and found.parameter in function.params:
                    return function.params[found.parameter]
                return function.line
        return decl_line or source.line

    def item_lines(self, cls: type, source: ClassSource) -> list[int]:
        """The line of each item of *cls*'s ``exports`` that is not a declaration, in order.

        Empty when the source does not show the tuple the class holds, item for item.
        """
        found = self._item_lines.get(cls)
        if found is None:
            declared: object = vars(cls).get("exports")
            items = typing.cast("tuple[object, ...]", declared)
            if isinstance(declared, (tuple, list)) and len(items) == len(source.items or ()):
                lines = source.items or []
                found = [lines[i] for i, item in enumerate(items) if not isinstance(item, ToolSpec)]
            else:
                found = []
            self._item_lines[cls] = found
        return found

    def cause_line(
        self, toolset: type, source: ClassSource, found: Problem, owner: type | None
    ) -> int:
        """The line of *cls* that makes an inherited declaration a problem, else the class line.

        A name made from this class's ``toolset_name``, or a method replaced by an attribute
        of this class (the plugin reports them there too, with a note on the class).
        """
        method = found.method or ""
        if found.code in _NAME_CODES and "toolset_name" in source.assigned:
            declared = self.declared(toolset, method)
            if declared is not None and declared.default_name:
                return source.assigned["toolset_name"]
        if found.code == _NOT_A_METHOD and owner is toolset:
            function = source.functions.get(method)
            if function is not None:
                return function.line
            return source.assigned.get(method, source.line)
        return source.line

    def add(self, finding: Finding) -> None:
        if finding.code not in self.disabled and finding not in self._found:
            self._found.add(finding)
            self.findings.append(finding)

    def seen_class(self, qualname: str, cls: type | None = None) -> None:
        """Count the class *qualname*, which is *cls* when that is known."""
        # By the class itself: two classes named `A`, in two modules or scopes, are two.
        known = cls is not None and class_display_name(cls.__qualname__) == qualname
        key: object = cls if known else qualname
        if key not in self._seen:
            self._seen.add(key)
            self.classes.append(qualname)

    # -- problems raised by the library

    def from_error(self, exc: ToolsetDefinitionError, fallback: str) -> None:
        origin = error_origin(exc)
        cls = origin.cls
        if not exc.problems:
            # Raised in the code's own words: its message, where that code raised it.
            toolset = None if cls is None else class_display_name(cls.__qualname__)
            if toolset is not None:
                self.seen_class(toolset, cls)
            found = make_problem("raised", toolset, message=str(exc))
            self.add(Finding(origin.call_path or fallback, origin.call_line, found))
            return
        problems, read = failed_class_read(exc, cls)
        repeats: dict[str, int] = {}
        items = 0  # the problems of `exports` items so far: the n-th is of the n-th such item
        for found in problems:
            if (
                found.toolset is None
                or found.code == _INIT
                or found.kind == _NOT_EXPORTED
                or cls is None
            ):
                # tool()'s own argument errors (no class yet), a `Cls.to_tools()` or
                # `Toolset.proxy(...)` call that ran while importing, or a class the traceback
                # does not show: report the call, as the plugin does.
                path, line = origin.call_path or fallback, origin.call_line
                if _DECORATORS_AT_DEF and found.toolset is None:
                    # Python 3.10 puts a decorator's call at its function's `def` line.
                    line = self.index(path).marked_defs.get(line, line)
            else:
                path = self.file_of(cls) or origin.path or fallback
                repeat = 0
                if found.method is not None and found.kind == "declared-twice":
                    repeats[found.method] = repeat = repeats.get(found.method, 0) + 1
                elif found.kind in _ITEM_KINDS:
                    repeat, items = items, items + 1
                line = self.locate(cls, path, found, repeat)
            if found.toolset is not None:
                self.seen_class(found.toolset, cls)
            self.add(Finding(path, line, found))
        if cls is not None:
            # The plugin reports a class's ambiguous unions beside its errors: so does check.
            path = self.file_of(cls) or origin.path or fallback
            qualname = class_display_name(cls.__qualname__)
            for method, parameter, annotation in read:
                self.ambiguity(cls, path, qualname, method, parameter, annotation)

    # -- a class that was built

    def check_class(self, cls: type[Toolset]) -> None:
        qualname = class_display_name(cls.__qualname__)
        self.seen_class(qualname, cls)
        path = self.file_of(cls)
        if path is None:
            return
        try:
            exports = exports_of(cls, Toolset)
            check_present(cls, exports)
        except ToolsetDefinitionError as exc:
            self.from_error(exc, path)
            return
        for export in exports:
            method = export.method
            declared = self.declared(cls, export.method_name)
            declaring = declared.by if declared is not None else None
            if (
                method is None
                or declaring is None
                or (
                    declaring is not cls
                    and _lookup_owner(declaring, export.method_name) is export.owner
                )
            ):
                continue  # inherited unchanged: reported on the class that declares it
            for param in method.params:
                self.ambiguity(
                    cls, path, qualname, export.method_name, param.name, param.annotation
                )

    def ambiguity(
        self, cls: type, path: str, qualname: str, method: str, parameter: str, annotation: object
    ) -> None:
        """Report *parameter*'s annotation if it is an ambiguous union (check 8)."""
        if CODE_PREFIX + "ambiguous-union" in self.disabled:
            return
        ambiguity = find_ambiguity(annotation)
        if ambiguity is None:
            return
        found = ambiguity.problem(qualname, method, parameter)
        self.add(Finding(path, self.locate(cls, path, found, 0), found))

    # -- `Cls.to_tools()` call sites

    def check_calls(self, loaded: LoadedModule, wanted: set[type] | None) -> None:
        if loaded.module is None or _INIT in self.disabled:
            return
        source = read_source(loaded.path)
        try:
            tree = ast.parse(source, filename=loaded.path) if source is not None else None
        except SyntaxError:
            return
        if tree is None:
            return
        namespace = dict(vars(loaded.module))
        for node, local in attribute_accesses(tree):
            if node.attr != "to_tools" or root_name(node.value) in local:
                continue
            value = resolve(node.value, namespace)
            if not (isinstance(value, type) and issubclass(value, Toolset)):
                continue
            if wanted is not None and value not in wanted:
                continue
            found = init_problem(value)
            if found is not None:
                # The same record as a call that ran while importing: `add` keeps one.
                self.add(Finding(loaded.path, node.lineno, found))


def _normalise_codes(codes: Sequence[str]) -> frozenset[str]:
    """``toolset`` (all), ``toolset-<code>`` or ``<code>`` into error codes (``toolset-<code>``).

    Raises:
        TargetError: An unknown code.
    """
    result: set[str] = set()
    for raw in codes:
        for code in (c.strip() for c in raw.split(",")):
            if not code:
                continue
            if code == "toolset":
                result |= {CODE_PREFIX + c for c in PROBLEM_CODES}
                continue
            bare = code.removeprefix(CODE_PREFIX)
            if bare not in PROBLEM_CODES:
                known = ", ".join(f"{CODE_PREFIX}{c}" for c in sorted(PROBLEM_CODES))
                msg = f"unknown error code {code!r} (known: toolset, {known})"
                raise TargetError(msg)
            result.add(CODE_PREFIX + bare)
    return frozenset(result)


def run_check(targets: Sequence[str], *, disable: Sequence[str] = ()) -> CheckResult:
    """Check the Toolset classes of *targets* (``module``, ``module:Class``, ``file.py[:Class]``).

    A target that cannot be imported (or has no such class) is named in the result's
    `CheckResult.unchecked`, and the others are checked all the same: one broken module does not
    hide the problems of the rest.

    Raises:
        TargetError: A code in *disable* is unknown; the one target cannot be imported; or the
            targets define no Toolset class at all.
    """
    checker = _Checker(_normalise_codes(disable))
    modules: list[str] = []
    unchecked: list[str] = []
    # By module part: two targets in one module read it once, its failures included (a module
    # that failed is not in sys.modules as it ran, so a second import would not see them).
    loaded_modules: dict[str, LoadedModule] = {}
    for target in targets:
        try:
            module_text, class_name = split_target(target)
            loaded = loaded_modules.get(module_text) or load_module(module_text)
            loaded_modules[module_text] = loaded
        except TargetError as exc:
            if len(targets) == 1:
                raise
            unchecked.append(str(exc))
            continue
        modules.append(loaded.name)
        namespace = dict(vars(loaded.module)) if loaded.module is not None else {}
        checker.index(loaded.path, namespace)
        # Every class that failed as the module was imported, the target's or not: the module
        # cannot be imported, so neither can the target class (SPEC 9: a finding, exit 1).
        for failure in loaded.failures:
            checker.from_error(failure, loaded.path)
        if loaded.module is None:
            continue
        if class_name is None:
            classes = toolset_classes(loaded.module)
        else:
            value = resolve_class(loaded.module, class_name)
            if value is None:
                source = checker.index(loaded.path).classes.get(class_name)
                if loaded.failures and source is not None:
                    continue  # it failed to build (or its base did): the problems are reported
                missing = no_class(target, loaded.name, loaded.module, class_name)
                if len(targets) == 1:
                    raise missing
                unchecked.append(str(missing))
                continue
            classes = [value]
        for cls in classes:
            checker.check_class(cls)
        checker.check_calls(loaded, None if class_name is None else set(classes))
    if not checker.classes and not checker.findings and not unchecked:
        # Nothing was checked, so nothing was found: a mistaken target, as `list` says. One of
        # several targets may be a helper module the others import.
        if len(modules) == 1:
            # With the Toolset classes it only imports named, as `list` names them.
            (only,) = loaded_modules.values()
            raise no_toolsets(targets[0], modules[0], only.module)
        msg = "none of the targets defines a Toolset class"
        raise TargetError(msg)
    # Stable: the problems of one line keep the order they were found in (the error's, SPEC 1).
    findings = sorted(checker.findings, key=lambda f: (f.path, f.line))
    return CheckResult(tuple(findings), tuple(checker.classes), tuple(unchecked))


def located(error: ToolsetDefinitionError) -> str:
    """*error*'s message, each problem led by the file and line ``check`` reports it on.

    For the commands that stop at a target's definition problems (``list``, ``schema``,
    ``call``, ``serve``): each problem is placed as ``check`` places a definition error raised
    while importing (from the error's traceback and the source, without running the module
    again), and gets its ``path:line: ``. A problem not placed is told as the error tells it.
    """
    if not error.problems:
        return str(error)
    checker = _Checker(frozenset())
    try:
        checker.from_error(error, "")
    except Exception:  # noqa: BLE001 - its methods' own code ran again: the error is told as is
        return str(error)
    places = {f.problem: f for f in checker.findings if f.line and f.path}
    lines: list[str] = []
    for problem in error.problems:
        found = places.get(problem)
        where = "" if found is None else f"{shown_path(found.path)}:{found.line}: "
        lines.append(f"{where}{problem}")
    return "\n".join(lines)
