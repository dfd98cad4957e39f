"""``typed-toolsets check``: the mypy plugin's verdicts, found at run time.

For projects that use pyright (which has no plugins) or no type checker, this imports the target
modules and reports every definition problem the mypy plugin reports, on the same lines:

- problems raised as `ToolsetDefinitionError` while a module is imported (checks 1 to 6). The
  import stops at the first broken class, so the module is then run again statement by
  statement (each class statement on its own) to find the problems of the classes after it;
- annotations that name something defined later, resolved now (what ``to_tools()`` would do);
- ambiguous unions (check 8), with `typed_toolsets.analysis.ambiguity`;
- ``Cls.to_tools()`` call sites (check 7), found in the target modules' source with `ast`:
  ``X.to_tools`` where ``X`` is a name (or dotted name) the module binds at top level to a
  Toolset class whose constructor needs arguments. Names bound inside a function (parameters,
  assignments) are not resolved, so ``cls.to_tools()`` in a classmethod is never reported.

Locations follow the plugin: a declaration's own line for problems of the declaration, the
parameter's line for problems of a parameter of a method defined in the same file, and the
``class`` line for inherited declarations.
"""

from __future__ import annotations
import __future__ as future_flags

import ast
import importlib
import importlib.util
import re
import sys
import types
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Final

import attrs

from typed_toolsets._toolset import Toolset
from typed_toolsets.definition.classes import class_info, required_init_fields
from typed_toolsets.definition.declarations import tool
from typed_toolsets.definition.errors import ToolsetDefinitionError
from typed_toolsets.rules.names import class_display_name
from typed_toolsets.rules.problems import PROBLEM_CODES

from .ambiguity import find_ambiguity

__all__ = ["CheckResult", "Finding", "TargetError", "run_check"]

_PROBLEM_RE: Final = re.compile(
    r"(?P<where>[^:\n]+): (?P<cause>.*) \[toolset-(?P<code>[a-z-]+)\]", re.S
)
_PARAM_RES: Final = (
    re.compile(r"parameter '(?P<name>[^']+)'"),
    re.compile(r"'\*{1,2}(?P<name>[^']+)' is not supported"),
)
_DECLARATION_CODES: Final = frozenset(
    {"unknown-method", "not-a-method", "duplicate-name", "invalid-name"}
)


@attrs.frozen
class Finding:
    """One problem found by ``check``.

    Attributes:
        path: The file it is reported in.
        line: The line, 1-based (0 when unknown).
        toolset: The qualified name of the Toolset class, when known.
        method: The method, for problems of one export.
        code: The problem code without its ``toolset-`` prefix (`PROBLEM_CODES`), or
            None for problems that have no code (a malformed ``tool()`` call).
        message: What is wrong, as the runtime words it.
        severity: ``error``, or ``warning`` for ambiguous unions.
    """

    path: str
    line: int
    toolset: str | None
    method: str | None
    code: str | None
    message: str
    severity: str = "error"

    def format(self) -> str:
        """``path:line: severity: message  [toolset-code]``, like mypy's output."""
        code = f"  [toolset-{self.code}]" if self.code else ""
        return f"{self.path}:{self.line}: {self.severity}: {self.message}{code}"


class TargetError(Exception):
    """A target cannot be resolved or imported (exit status 2). The message is one line."""


@attrs.frozen
class CheckResult:
    """What ``check`` found.

    Attributes:
        findings: Every problem, sorted by file and line.
        classes: The qualified names of the Toolset classes checked.
    """

    findings: tuple[Finding, ...]
    classes: tuple[str, ...]


# ------------------------------------------------------------------------------ source index


@attrs.frozen
class _FunctionSource:
    line: int
    params: dict[str, int]


@attrs.define
class _ClassSource:
    line: int
    decls: list[tuple[str, int]] = attrs.Factory(list[tuple[str, int]])
    functions: dict[str, _FunctionSource] = attrs.Factory(dict[str, _FunctionSource])


def _is_overload(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    return any(
        (isinstance(d, ast.Name) and d.id == "overload")
        or (isinstance(d, ast.Attribute) and d.attr == "overload")
        for d in node.decorator_list
    )


class _SourceIndex:
    """Lines of classes, declarations, methods and parameters in one source file."""

    def __init__(self, path: str, source: str, namespace: dict[str, object]) -> None:
        self.path = path
        self.classes: dict[str, _ClassSource] = {}
        self._namespace = namespace
        self._is_tool = _tool_matcher(namespace)
        try:
            tree = ast.parse(source, filename=path)
        except SyntaxError:
            return
        self._walk(tree.body, "")

    def _walk(self, body: list[ast.stmt], prefix: str) -> None:
        for node in body:
            if isinstance(node, ast.ClassDef):
                qualname = f"{prefix}{node.name}"
                self.classes[qualname] = self._class(node)
                self._walk(node.body, f"{qualname}.")
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                self._walk(node.body, f"{prefix}{node.name}.<locals>.")
            else:
                for field in ("body", "orelse", "finalbody", "handlers"):
                    inner = getattr(node, field, None)
                    if isinstance(inner, list):
                        statements = [s for s in inner if isinstance(s, ast.stmt)]  # pyright: ignore[reportUnknownVariableType]
                        for handler in inner:  # pyright: ignore[reportUnknownVariableType]
                            if isinstance(handler, ast.ExceptHandler):
                                statements.extend(handler.body)
                        self._walk(statements, prefix)

    def _class(self, node: ast.ClassDef) -> _ClassSource:
        # `@attrs.define class X` reports on the `class` line in Python >= 3.8 and in mypy.
        source = _ClassSource(line=node.lineno)
        exports: list[tuple[str, int]] = []
        decorated: dict[str, tuple[str, int] | None] = {}
        for stmt in node.body:
            value: ast.expr | None = None
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
                target = stmt.targets[0]
                if isinstance(target, ast.Name) and target.id == "exports":
                    value = stmt.value
            elif (
                isinstance(stmt, ast.AnnAssign)
                and isinstance(stmt.target, ast.Name)
                and stmt.target.id == "exports"
            ):
                value = stmt.value
            if value is not None:
                exports = list(self._exports(value))
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                if _is_overload(stmt):
                    decorated.setdefault(stmt.name, None)
                    continue
                mark = self._decorator_line(stmt)
                previous = decorated.get(stmt.name)
                # A property's setter keeps the getter's mark; a redefinition replaces it.
                decorated[stmt.name] = (stmt.name, mark) if mark is not None else previous
                params = {
                    a.arg: a.lineno
                    for a in (
                        *stmt.args.posonlyargs,
                        *stmt.args.args,
                        *stmt.args.kwonlyargs,
                        *(x for x in (stmt.args.vararg, stmt.args.kwarg) if x is not None),
                    )
                }
                if stmt.name not in source.functions or mark is not None or not previous:
                    source.functions[stmt.name] = _FunctionSource(stmt.lineno, params)
        source.decls = exports + [d for d in decorated.values() if d is not None]
        return source

    def _exports(self, value: ast.expr) -> Iterator[tuple[str, int]]:
        if isinstance(value, (ast.Tuple, ast.List)):
            for item in value.elts:
                if isinstance(item, ast.Call) and self._is_tool(item.func) and item.args:
                    first = item.args[0]
                    name = (
                        first.value
                        if isinstance(first, ast.Constant)
                        else _resolve(first, self._namespace)
                    )
                    if isinstance(name, str):  # a literal, or a module constant (`Final`)
                        yield name, item.lineno
        elif isinstance(value, ast.BinOp) and isinstance(value.op, ast.Add):
            yield from self._exports(value.left)
            yield from self._exports(value.right)

    def _decorator_line(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> int | None:
        for dec in node.decorator_list:
            if self._is_tool(dec):
                return dec.lineno
            if isinstance(dec, ast.Call) and self._is_tool(dec.func) and not dec.args:
                return dec.lineno
        return None


def _tool_matcher(namespace: dict[str, object]) -> Callable[[ast.expr], bool]:
    """Recognise references to `typed_toolsets.tool` (aliases and ``pkg.tool`` included)."""

    def is_tool(expr: ast.expr) -> bool:
        value = _resolve(expr, namespace)
        if value is _UNRESOLVED:
            return (isinstance(expr, ast.Name) and expr.id == "tool") or (
                isinstance(expr, ast.Attribute) and expr.attr == "tool"
            )
        return value is tool

    return is_tool


class _Unresolved:
    pass


_UNRESOLVED: Final = _Unresolved()


def _resolve(expr: ast.expr, namespace: dict[str, object]) -> object:
    """The value of a name or dotted name in *namespace*, or `_UNRESOLVED`."""
    if isinstance(expr, ast.Name):
        return namespace.get(expr.id, _UNRESOLVED)
    if isinstance(expr, ast.Attribute):
        base = _resolve(expr.value, namespace)
        if base is _UNRESOLVED:
            return _UNRESOLVED
        try:
            return getattr(base, expr.attr)
        except Exception:  # noqa: BLE001 - a failing attribute means "cannot tell"
            return _UNRESOLVED
    return _UNRESOLVED


# ---------------------------------------------------------------------------------- importing


def _split_target(target: str) -> tuple[str, str | None]:
    """``module:Class`` / ``path.py:Class`` into its two parts (a Windows drive is not one)."""
    head, sep, tail = target.rpartition(":")
    if sep and head and len(head) > 1 and re.fullmatch(r"[A-Za-z_][\w.]*", tail):
        return head, tail
    return target, None


def _module_for_path(path: Path) -> tuple[str, Path]:
    """The importable name of a source file and the directory to put on ``sys.path``."""
    path = path.resolve()
    parts = [path.stem]
    root = path.parent
    while (root / "__init__.py").is_file():
        parts.insert(0, root.name)
        root = root.parent
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts), root


def _one_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    detail = f": {text[0]}" if text else ""
    return f"{type(exc).__name__}{detail}"


@attrs.define
class _Loaded:
    name: str
    module: types.ModuleType | None
    path: str
    failures: list[ToolsetDefinitionError] = attrs.Factory(list[ToolsetDefinitionError])


def _load(spec_text: str) -> _Loaded:
    """Import one target module, turning definition errors into failures to report.

    Raises:
        TargetError: The module cannot be found or raises anything else while importing.
    """
    candidate = Path(spec_text)
    if spec_text.endswith(".py") or candidate.is_file():
        if not candidate.is_file():
            msg = f"{spec_text}: no such file"
            raise TargetError(msg)
        name, root = _module_for_path(candidate)
        if str(root) not in sys.path:
            sys.path.insert(0, str(root))
    else:
        name = spec_text
        if str(Path.cwd()) not in sys.path and "" not in sys.path:
            sys.path.insert(0, str(Path.cwd()))
    try:
        module = importlib.import_module(name)
    except ToolsetDefinitionError as exc:
        return _load_by_statement(name, exc)
    except (Exception, SystemExit) as exc:  # noqa: BLE001 - any import failure is exit 2
        msg = f"cannot import {name!r}: {_one_line(exc)}"
        raise TargetError(msg) from None
    path = getattr(module, "__file__", None) or spec_text
    return _Loaded(name, module, str(path))


def _future_flags(tree: ast.Module) -> int:
    flags = 0
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module == "__future__":
            for alias in node.names:
                feature = getattr(future_flags, alias.name, None)
                flags |= getattr(feature, "compiler_flag", 0)
    return flags


def _load_by_statement(name: str, first: ToolsetDefinitionError) -> _Loaded:
    """Run a module whose import raised a definition error again, one statement at a time.

    A class statement that raises is recorded and skipped, so every class of the module is
    checked; statements that need a skipped class fail in turn and are skipped too. Module-level
    code therefore runs twice: ``check`` is meant for modules that define toolsets.
    """
    spec = importlib.util.find_spec(name)
    loader = spec.loader if spec is not None else None
    get_source = getattr(loader, "get_source", None)
    origin = spec.origin if spec is not None else None
    source = get_source(name) if callable(get_source) else None
    if spec is None or not isinstance(source, str) or origin is None:
        return _Loaded(name, None, origin or name, [first])
    loaded = _Loaded(name, None, origin)
    try:
        tree = ast.parse(source, filename=origin)
    except SyntaxError:  # pragma: no cover - it imported up to the failing class
        loaded.failures.append(first)
        return loaded
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    flags = _future_flags(tree)
    for stmt in tree.body:
        module_code = ast.Module(body=[stmt], type_ignores=[])
        code = compile(module_code, origin, "exec", flags=flags, dont_inherit=True)
        try:
            exec(code, module.__dict__)  # noqa: S102 - the user's own module, as `import` would
        except ToolsetDefinitionError as exc:
            loaded.failures.append(exc)
        except Exception:  # noqa: BLE001, S112 - needs a class that failed: already reported
            continue
    if not loaded.failures:  # pragma: no cover - the import failed once, so it fails again
        loaded.failures.append(first)
    loaded.module = module
    return loaded


# ----------------------------------------------------------------------------------- checking


def _toolset_classes(module: types.ModuleType) -> list[type[Toolset]]:
    """Every Toolset subclass defined in *module*, nested classes included, in source order."""
    found: list[type[Toolset]] = []
    seen: set[int] = set()

    def visit(namespace: dict[str, object]) -> None:
        for value in list(namespace.values()):
            if (
                isinstance(value, type)
                and value.__module__ == module.__name__
                and id(value) not in seen
            ):
                seen.add(id(value))
                members: dict[str, object] = dict(vars(value))
                if issubclass(value, Toolset) and value is not Toolset:
                    found.append(value)
                visit(members)  # classes nested in any class of the module

    visit(dict(vars(module)))
    return found


def _lookup_owner(cls: type, name: str) -> type | None:
    for klass in cls.__mro__:
        if name in vars(klass):
            return klass
    return None


def _declaring_class(cls: type, method: str) -> type | None:
    """The nearest class in *cls*'s MRO whose own declarations include *method*."""
    for klass in cls.__mro__:
        info = class_info(klass)
        if info is not None and any(s.method_name == method for s in info.own_specs):
            return klass
    return None


class _Checker:
    def __init__(self) -> None:
        self.findings: list[Finding] = []
        self.classes: list[str] = []
        self._indexes: dict[str, _SourceIndex] = {}

    # -- locations

    def index(self, path: str, namespace: dict[str, object] | None = None) -> _SourceIndex:
        found = self._indexes.get(path)
        if found is None:
            try:
                source = Path(path).read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                source = ""
            found = _SourceIndex(path, source, namespace or {})
            self._indexes[path] = found
        return found

    @staticmethod
    def file_of(toolset: type) -> str | None:
        module = sys.modules.get(toolset.__module__)
        path = getattr(module, "__file__", None)
        return path if isinstance(path, str) else None

    def locate(
        self, cls: type, path: str, method: str | None, code: str, cause: str, repeat: int
    ) -> int:
        """The line the plugin would report this problem on (see the module docstring)."""
        index = self.index(path)
        source = index.classes.get(cls.__qualname__)
        if source is None:
            return 0
        if method is None:
            return source.line
        own = [line for name, line in source.decls if name == method]
        decl_line = (own[min(repeat, len(own) - 1)] if repeat else own[-1]) if own else None
        if code in _DECLARATION_CODES:
            return decl_line or source.line
        param = next((m.group("name") for r in _PARAM_RES if (m := r.match(cause))), None)
        owner = _lookup_owner(cls, method)
        if owner is not None and owner.__module__ == cls.__module__:
            owner_source = index.classes.get(owner.__qualname__)
            function = owner_source.functions.get(method) if owner_source else None
            if function is not None:
                if param is not None and param in function.params:
                    return function.params[param]
                return function.line
        return decl_line or source.line

    def keep_only(self, qualname: str, findings_from: int, classes_from: int) -> None:
        """Drop what was found since the given counts about classes other than *qualname*."""

        def wanted(name: str | None) -> bool:
            return name is not None and (name == qualname or name.startswith(f"{qualname}."))

        self.findings[findings_from:] = [
            f for f in self.findings[findings_from:] if wanted(f.toolset)
        ]
        self.classes[classes_from:] = [c for c in self.classes[classes_from:] if wanted(c)]

    def add(self, finding: Finding, disabled: frozenset[str]) -> None:
        if finding.code is not None and finding.code in disabled:
            return
        if finding not in self.findings:
            self.findings.append(finding)

    # -- problems raised by the library

    def from_error(
        self, exc: ToolsetDefinitionError, fallback: str, disabled: frozenset[str]
    ) -> None:
        origin = _error_origin(exc)
        cls = origin.cls
        repeats: dict[str, int] = {}
        for text in exc.problems:
            match = _PROBLEM_RE.fullmatch(text)
            if cls is None or match is None:
                path = origin.call_path or fallback
                self.add(Finding(path, origin.call_line, None, None, None, text), disabled)
                continue
            where, cause, code = match.group("where", "cause", "code")
            # Problems name classes defined in functions without their `<locals>` part.
            qualname = class_display_name(cls.__qualname__)
            if qualname not in self.classes:
                self.classes.append(qualname)
            method = where[len(qualname) + 1 :] if where.startswith(f"{qualname}.") else None
            message = text[: match.start("code") - len(" [toolset-")]
            if code == "init":
                # A `Cls.to_tools()` call that ran while importing: report the call.
                path, line = origin.call_path or fallback, origin.call_line
            else:
                path = self.file_of(cls) or origin.path or fallback
                repeat = 0
                if method is not None and "declared twice" in cause:
                    repeats[method] = repeat = repeats.get(method, 0) + 1
                line = self.locate(cls, path, method, code, cause, repeat)
            self.add(Finding(path, line, qualname, method, code, message), disabled)

    # -- a class that was built

    def check_class(self, cls: type[Toolset], disabled: frozenset[str]) -> None:
        qualname = class_display_name(cls.__qualname__)
        if qualname not in self.classes:
            self.classes.append(qualname)
        info = class_info(cls)
        path = self.file_of(cls)
        if info is None or path is None:
            return
        try:
            exports = info.resolved_exports(qualname)
        except ToolsetDefinitionError as exc:
            self.from_error(exc, path, disabled)
            return
        if "ambiguous-union" in disabled:
            return
        for export in exports:
            method = export.method
            declaring = _declaring_class(cls, export.method_name)
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
                ambiguity = find_ambiguity(param.annotation)
                if ambiguity is None:
                    continue
                cause = (
                    f"parameter {param.name!r} has the union {ambiguity.union}, and a JSON value "
                    f"can match both {ambiguity.first} and {ambiguity.second} (the first one in "
                    "declared order wins)"
                )
                text = _message(qualname, export.method_name, cause)
                line = self.locate(cls, path, export.method_name, "ambiguous-union", cause, 0)
                self.add(
                    Finding(
                        path,
                        line,
                        qualname,
                        export.method_name,
                        "ambiguous-union",
                        text,
                        "warning",
                    ),
                    disabled,
                )

    # -- `Cls.to_tools()` call sites

    def check_calls(
        self, loaded: _Loaded, wanted: set[type] | None, disabled: frozenset[str]
    ) -> None:
        if loaded.module is None or "init" in disabled:
            return
        try:
            source = Path(loaded.path).read_text(encoding="utf-8")
            tree = ast.parse(source, filename=loaded.path)
        except (OSError, UnicodeDecodeError, SyntaxError):
            return
        namespace = dict(vars(loaded.module))
        for node, local in _attribute_accesses(tree):
            if node.attr != "to_tools" or _root_name(node.value) in local:
                continue
            value = _resolve(node.value, namespace)
            if not (isinstance(value, type) and issubclass(value, Toolset)):
                continue
            if wanted is not None and value not in wanted:
                continue
            needed = required_init_fields(value)
            if not needed:
                continue
            name = class_display_name(value.__qualname__)
            names = ", ".join(repr(n) for n in needed)
            cause = (
                f"{name}.to_tools() calls {name}() with no arguments, but the constructor needs "
                f"{names}; give each a default, or call to_tools() on an instance"
            )
            text = _message(name, None, cause)
            self.findings = [
                f
                for f in self.findings
                if not (f.code == "init" and f.path == loaded.path and f.line == node.lineno)
            ]
            self.add(Finding(loaded.path, node.lineno, name, None, "init", text), disabled)


def _message(qualname: str, method: str | None, cause: str) -> str:
    """A problem worded like the runtime's (`problem` without the code)."""
    where = qualname if method is None else f"{qualname}.{method}"
    return f"{where}: {cause}"


@attrs.frozen
class _Origin:
    """Where a definition error comes from.

    Attributes:
        cls: The Toolset class it is about, when the traceback shows it.
        path: The file of the user code that raised it: the module defining ``cls``, or the
            innermost user frame when the class is not known.
        line: The line in that file.
        call_path: The file of the innermost user frame (a ``Cls.to_tools()`` call).
        call_line: Its line.
    """

    cls: type | None
    path: str | None
    line: int
    call_path: str | None
    call_line: int


# The core's own frames; the built-in toolsets' modules count as user code (they define classes).
_LIBRARY_MODULES: Final = tuple(
    f"typed_toolsets.{layer}" for layer in ("_", "rules.", "types.", "definition.", "call.")
)


def _error_origin(exc: BaseException) -> _Origin:
    """The Toolset class a definition error is about, and the user code lines that raised it."""
    cls: type | None = None
    frames: list[tuple[str, str, int]] = []
    tb = exc.__traceback__
    while tb is not None:
        candidate = tb.tb_frame.f_locals.get("cls")
        if isinstance(candidate, type) and issubclass(candidate, Toolset):
            cls = candidate
        name = str(tb.tb_frame.f_globals.get("__name__"))
        if not name.startswith((*_LIBRARY_MODULES, "importlib", "attr")):
            frames.append((name, tb.tb_frame.f_code.co_filename, tb.tb_lineno))
        tb = tb.tb_next
    call_path, call_line = (frames[-1][1], frames[-1][2]) if frames else (None, 0)
    module = cls.__module__ if cls is not None else None
    defining = [f for f in frames if module is None or f[0] == module]
    path, line = (defining[-1][1], defining[-1][2]) if defining else (None, 0)
    return _Origin(cls, path, line, call_path, call_line)


def _root_name(expr: ast.expr) -> str | None:
    while isinstance(expr, ast.Attribute):
        expr = expr.value
    return expr.id if isinstance(expr, ast.Name) else None


def _bound_names(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> set[str]:
    args = node.args
    names = {
        a.arg
        for a in (*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg)
        if a is not None
    }
    body: list[ast.AST] = [node.body] if isinstance(node, ast.Lambda) else list(node.body)
    for stmt in body:
        for inner in ast.walk(stmt):
            if isinstance(inner, ast.Name) and isinstance(inner.ctx, ast.Store):
                names.add(inner.id)
    return names


def _attribute_accesses(tree: ast.Module) -> Iterator[tuple[ast.Attribute, frozenset[str]]]:
    """Every attribute access, with the names bound locally by the enclosing functions."""

    def visit(
        node: ast.AST, local: frozenset[str]
    ) -> Iterator[tuple[ast.Attribute, frozenset[str]]]:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            local = local | _bound_names(node)
        if isinstance(node, ast.Attribute):
            yield node, local
        for child in ast.iter_child_nodes(node):
            yield from visit(child, local)

    yield from visit(tree, frozenset())


def _normalise_codes(codes: Sequence[str]) -> frozenset[str]:
    """``toolset`` (all), ``toolset-<code>`` or ``<code>`` into problem codes.

    Raises:
        TargetError: An unknown code.
    """
    result: set[str] = set()
    for raw in codes:
        for code in (c.strip() for c in raw.split(",")):
            if not code:
                continue
            if code == "toolset":
                result |= PROBLEM_CODES
                continue
            bare = code.removeprefix("toolset-")
            if bare not in PROBLEM_CODES:
                known = ", ".join(f"toolset-{c}" for c in sorted(PROBLEM_CODES))
                msg = f"unknown error code {code!r} (known: toolset, {known})"
                raise TargetError(msg)
            result.add(bare)
    return frozenset(result)


def run_check(targets: Sequence[str], *, disable: Sequence[str] = ()) -> CheckResult:
    """Check the Toolset classes of *targets* (``module``, ``module:Class``, ``file.py[:Class]``).

    Raises:
        TargetError: A target cannot be resolved or imported, or a code in *disable* is unknown.
    """
    disabled = _normalise_codes(disable)
    checker = _Checker()
    for target in targets:
        module_text, class_name = _split_target(target)
        loaded = _load(module_text)
        namespace = dict(vars(loaded.module)) if loaded.module is not None else {}
        checker.index(loaded.path, namespace)
        findings_before, classes_before = len(checker.findings), len(checker.classes)
        for failure in loaded.failures:
            checker.from_error(failure, loaded.path, disabled)
        if class_name is not None:
            # Other classes of the module failed too; only the target's problems are wanted.
            checker.keep_only(class_name, findings_before, classes_before)
        if loaded.module is None:
            continue
        if class_name is None:
            classes = _toolset_classes(loaded.module)
        else:
            value = _resolve_qualname(loaded.module, class_name)
            if value is None:
                if len(checker.findings) > findings_before:
                    continue  # the class failed to build: its problems are reported
                msg = f"{target}: {loaded.name} has no Toolset class {class_name!r}"
                raise TargetError(msg)
            classes = [value]
        for cls in classes:
            checker.check_class(cls, disabled)
        checker.check_calls(loaded, None if class_name is None else set(classes), disabled)
    findings = sorted(checker.findings, key=lambda f: (f.path, f.line, f.message))
    return CheckResult(tuple(findings), tuple(checker.classes))


def _resolve_qualname(module: types.ModuleType, qualname: str) -> type[Toolset] | None:
    value: object = module
    for part in qualname.split("."):
        value = getattr(value, part, None)
    if isinstance(value, type) and issubclass(value, Toolset):
        return value
    return None
