"""Loading the Toolset classes a command-line target names.

A target is ``module``, ``module:Class``, ``path/to/file.py`` or ``path/to/file.py:Class`` (a
file inside a package is imported as part of it; ``Class`` may be dotted, ``Outer.Inner``).
``typed-toolsets check`` loads targets with `load_module`, which turns definition errors into
failures to report; the other commands use `load_toolsets`.

A file is loaded from its path, never found by its base name: two targets ``a/tools.py`` and
``c/tools.py`` are two modules (the second under a name of its own, ``tools_2``), and
``sub/json.py`` is that file, not the standard library's ``json``. Its directory goes first on
``sys.path``, as when Python runs a script, so that it imports its sibling modules.
"""

from __future__ import annotations
import __future__ as future_flags

import ast
import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import inspect
import itertools
import os
import sys
import types
import typing
from collections.abc import Callable
from pathlib import Path
from typing import Final

import attrs

from typed_toolsets._toolset import Toolset
from typed_toolsets.definition.errors import ToolsetDefinitionError
from typed_toolsets.rules.names import close_matches

__all__ = [
    "LoadedModule",
    "TargetError",
    "failure_text",
    "load_module",
    "load_toolsets",
    "no_class",
    "no_toolsets",
    "resolve_class",
    "shown_path",
    "split_target",
    "toolset_classes",
]


class TargetError(Exception):
    """A target cannot be resolved or imported (exit status 2). The message is one line."""


def split_target(target: str) -> tuple[str, str | None]:
    """``module:Class`` / ``path.py:Class`` into its two parts (a Windows drive is not one)."""
    head, sep, tail = target.rpartition(":")
    # A class name is Python's identifiers, dotted (``Outer.Inner``): ``Café`` and ``Инструменты``
    # too, as Python spells them.
    if sep and len(head) > 1 and all(part.isidentifier() for part in tail.split(".")):
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
class LoadedModule:
    """One imported target module.

    Attributes:
        name: Its module name.
        module: The module; None when a definition error stopped it and it could not be run
            again statement by statement.
        path: Its source file.
        failures: The definition errors raised while importing it, in order.
    """

    name: str
    module: types.ModuleType | None
    path: str
    failures: list[ToolsetDefinitionError] = attrs.Factory(list[ToolsetDefinitionError])


def _file_module(path: Path) -> tuple[str, importlib.machinery.ModuleSpec | None]:
    """The module name to load the source file *path* as, and its spec (None: import the name).

    A file inside a package is imported by its qualified name, for its relative imports. Any
    other file gets its base name when no other module has it, else the first free one of
    ``name_2``, ``name_3``...; a file already loaded (a sibling imported it) is found again.
    """
    qualified, root = _module_for_path(path)
    if str(root) not in sys.path:
        sys.path.insert(0, str(root))
    if "." in qualified or path.name == "__init__.py":
        return qualified, None
    name = qualified
    for number in itertools.count(2):
        module = sys.modules.get(name)
        if module is None:
            break
        if _same_file(module, path):
            return name, None
        name = f"{qualified}_{number}"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:  # pragma: no cover - a .py path always has one
        msg = f"{path}: cannot be loaded as a Python module"
        raise TargetError(msg)
    return name, spec


def _same_file(module: types.ModuleType, path: Path) -> bool:
    found = vars(module).get("__file__")  # not through the module's own __getattr__
    return isinstance(found, str) and Path(found).resolve() == path


def _import(name: str, spec: importlib.machinery.ModuleSpec | None) -> types.ModuleType:
    """Import *name*, from *spec* when given (registered in ``sys.modules`` as `import` does)."""
    if spec is None:
        return importlib.import_module(name)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        typing.cast("importlib.abc.Loader", spec.loader).exec_module(module)
    except BaseException:
        if sys.modules.get(name) is module:
            del sys.modules[name]
        raise
    return module


def load_module(module_text: str, *, recover: bool = True) -> LoadedModule:
    """Import the module part of a target (`split_target`).

    Args:
        module_text: A module name or a path to a ``.py`` file.
        recover: When a class definition raises `ToolsetDefinitionError`, run the module again
            statement by statement so that every class is created or reported (the errors go to
            ``failures``), one raised in the module's own words included. When False, the
            error propagates, and one in the module's own words is its import failure.

    Raises:
        TargetError: The module cannot be found or raises anything else while importing
            (a `ToolsetDefinitionError` in its own words too, when *recover* is False).
        ToolsetDefinitionError: A class of the module is invalid and *recover* is False.
    """
    candidate = Path(module_text)
    spec: importlib.machinery.ModuleSpec | None = None
    source: Path | None = None
    is_file = _is(candidate, Path.is_file)
    if module_text.endswith(".py") or is_file:
        if not is_file:
            what = "a directory, not a .py file" if _is(candidate, Path.is_dir) else "no such file"
            msg = f"{module_text}: {what}"
            raise TargetError(msg)
        if candidate.suffix != ".py":
            # Its name read as a module's would import another module (good.py.bak: good).
            msg = f"{module_text}: not a .py file; give a .py file or a module's dotted name"
            raise TargetError(msg)
        source = candidate.resolve()
        name, spec = _file_module(source)
    else:
        name = module_text
        if name.startswith(".") or "/" in name or os.sep in name:
            # importlib would say "the 'package' argument is required to perform a relative
            # import", or "No module named 'pkg/'".
            msg = (
                f"{module_text}: not a module name or a .py file; give a module's dotted name "
                "(mypackage.tools) or the path of a .py file (mypackage/tools.py)"
            )
            raise TargetError(msg)
        try:
            here = str(Path.cwd())
        except OSError:  # the working directory was removed: installed modules still import
            here = None
        if here is not None and here not in sys.path and "" not in sys.path:
            sys.path.insert(0, here)
    try:
        module = _import(name, spec)
    except ToolsetDefinitionError as exc:
        if recover:
            # A finding of `check` (SPEC 9), its message the code's own when no record of the
            # library's says it.
            return _load_by_statement(name, exc, spec)
        if not exc.problems:
            # For the other commands, raised by the module's own code with a message: the
            # module fails to import, as with any other exception.
            raise _import_failure(name, exc) from None
        raise
    except KeyboardInterrupt:
        raise
    except BaseException as exc:  # noqa: BLE001 - any import failure is exit 2
        # SystemExit, and CancelledError or a library's own BaseException raised at import.
        failure = _import_failure(name, exc)
        if spec is None and isinstance(exc, ModuleNotFoundError) and exc.name == name:
            failure = TargetError(f"{failure}{_colon_hint(name)}")
        raise failure from None
    if source is not None and not _same_file(module, source):
        # A package file imported by its qualified name found another package of that name.
        other = vars(module).get("__file__") or "a module without a file"
        msg = (
            f"{module_text}: its module name {name!r} is taken by {other}; rename its package, "
            "or check the files in separate runs"
        )
        raise TargetError(msg)
    path = vars(module).get("__file__") or module_text
    return LoadedModule(name, module, str(path))


def _is(path: Path, test: Callable[[Path], bool]) -> bool:
    """``test(path)``, False when the path cannot even be looked at (a name too long for one)."""
    try:
        return test(path)
    except OSError:
        return False


def _colon_hint(name: str) -> str:
    """``"; ... write mod:Cls"`` when the module name *name* is ``mod.Cls``, else ``""``.

    ``mod.Cls`` is how Python spells the class, so it is the commonest slip in a target. A
    colon left in the name is a target `split_target` could not split (``mod:``, ``:Cls``,
    ``mod:Cls:x``, ``mod:Class-Name``).
    """
    if ":" in name:
        return "; write a target as module:Class (a module name, one ':', a class name)"
    head, _, tail = name.rpartition(".")
    if not head:
        return ""
    try:
        module = importlib.import_module(head)
    except (Exception, SystemExit):  # noqa: BLE001 - no hint then: the name's own error stands
        return ""
    value = _attribute_at(module, tail)
    if isinstance(value, type) and issubclass(value, Toolset) and value is not Toolset:
        return f"; {tail} is a Toolset class of {head}: write {head}:{tail}"
    return ""


def _future_flags(tree: ast.Module) -> int:
    flags = 0
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module == "__future__":
            for alias in node.names:
                feature = getattr(future_flags, alias.name, None)
                flags |= getattr(feature, "compiler_flag", 0)
    return flags


def _import_failure(name: str, exc: BaseException) -> TargetError:
    """The usage error of module *name* raising *exc* while it runs, with where it raised."""
    return TargetError(f"cannot import {name!r}: {failure_text(exc)}")


def failure_text(exc: BaseException) -> str:
    """``NameError: name 'Path' is not defined (tools.py, line 3)``: *exc* in one line.

    The type, the first line of the message and the innermost place it was raised outside the
    import machinery: what a user needs instead of the traceback a command never prints.
    """
    return f"{_one_line(exc)}{_raised_at(exc)}"


#: The loader's own frames: where the import started, never where it failed.
_LOADER_FILES: Final = (__file__, importlib.__file__ or "", importlib.util.__file__ or "")


def _raised_at(exc: BaseException) -> str:
    """`` (file.py, line N)``: the innermost frame of the failure outside the import machinery.

    A one-line error has no traceback, so without it ``NameError: name 'Path' is not defined``
    leaves the user to search the module. A `SyntaxError` names its place itself; a module
    that is not found has no frame of its own, and gets nothing.
    """
    if isinstance(exc, SyntaxError):
        return ""
    place = ""
    frame = exc.__traceback__
    standard = _standard_library()
    while frame is not None:
        filename = frame.tb_frame.f_code.co_filename
        if (
            not filename.startswith("<frozen ")
            and filename not in _LOADER_FILES
            and not standard(filename)
        ):
            place = f" ({shown_path(filename)}, line {frame.tb_lineno})"
        frame = frame.tb_next
    return place


def _standard_library() -> Callable[[str], bool]:
    """Whether a file is the standard library's (``os.py`` on 3.10, frozen from 3.11 on).

    Its frames are where a failure surfaced (``os.environ["X"]``), never the user's line.
    """
    import sysconfig

    paths = sysconfig.get_paths()
    library = tuple({paths["stdlib"], paths["platstdlib"]})
    installed = tuple({paths["purelib"], paths["platlib"]})
    return lambda name: name.startswith(library) and not name.startswith(installed)


def shown_path(path: str) -> str:
    """*path* relative to the current directory when the file is inside it, else as it is."""
    try:
        here = Path.cwd()
        return str(Path(path).relative_to(here)) if Path(path).is_relative_to(here) else path
    except (OSError, ValueError):  # no current directory (deleted), or another drive
        return path


def _bound_names(stmt: ast.stmt) -> set[str]:
    """The module-level names *stmt* binds (a class, a function, assignments, imports)."""
    if isinstance(stmt, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
        return {stmt.name}
    if isinstance(stmt, (ast.Import, ast.ImportFrom)):
        return {(alias.asname or alias.name).partition(".")[0] for alias in stmt.names}
    return {
        node.id
        for node in ast.walk(stmt)
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store)
    }


def _spec_without_packages(name: str) -> importlib.machinery.ModuleSpec | None:
    """The spec of the module *name*, found on the path without importing its packages."""
    locations: list[str] | None = None
    spec: importlib.machinery.ModuleSpec | None = None
    parts = name.split(".")
    for index in range(len(parts)):
        spec = importlib.machinery.PathFinder.find_spec(".".join(parts[: index + 1]), locations)
        if spec is None:
            return None
        found = spec.submodule_search_locations
        locations = list(found) if found is not None else None
        if locations is None and index < len(parts) - 1:
            return None  # a module, not a package, on the way
    return spec


def _load_by_statement(
    name: str, first: ToolsetDefinitionError, spec: importlib.machinery.ModuleSpec | None = None
) -> LoadedModule:
    """Run a module whose import raised a definition error again, one statement at a time.

    A class statement that raises is recorded and skipped, so every class of the module is
    checked; statements that need a skipped class fail in turn and are skipped too. Once a class
    has failed, a statement that raises anything else ends the run (the import never got that
    far, and it may follow from the class: a registry lookup, an exit), and the failures found
    are reported. Module-level code therefore runs twice: ``check`` is meant for modules that
    define toolsets.
    """
    if spec is None:
        try:
            spec = importlib.util.find_spec(name)
        except KeyboardInterrupt:
            raise
        except BaseException:  # noqa: BLE001 - its package failed, importing the module itself
            # Finding a submodule imports its package, whose own code imported the module
            # (``from pkg.tools import X`` in ``pkg/__init__.py``) and met the same error.
            spec = _spec_without_packages(name)
            if spec is None:
                return LoadedModule(name, None, name, [first])
    loader = spec.loader if spec is not None else None
    get_source = getattr(loader, "get_source", None)
    origin = spec.origin if spec is not None else None
    source = get_source(name) if callable(get_source) else None
    if spec is None or not isinstance(source, str) or origin is None:
        return LoadedModule(name, None, origin or name, [first])
    loaded = LoadedModule(name, None, origin)
    try:
        tree = ast.parse(source, filename=origin)
    except SyntaxError:  # pragma: no cover - it imported up to the failing class
        loaded.failures.append(first)
        return loaded
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    flags = _future_flags(tree)
    skipped: set[str] = set()  # the names the failed statements would have bound
    for stmt in tree.body:
        module_code = ast.Module(body=[stmt], type_ignores=[])
        code = compile(module_code, origin, "exec", flags=flags, dont_inherit=True)
        try:
            exec(code, module.__dict__)  # noqa: S102 - the user's own module, as `import` would
        except ToolsetDefinitionError as exc:
            loaded.failures.append(exc)
            skipped.update(_bound_names(stmt))
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # noqa: BLE001 - the module fails, as on import
            if isinstance(exc, NameError) and exc.name in skipped:
                skipped.update(_bound_names(stmt))  # needs a class that failed: reported
                continue
            if loaded.failures:
                # Past a class that failed, which the import never got beyond: this failure
                # (a registry without the class, an exit) may follow from it. What failed
                # before is reported; the rest of the module is not run.
                break
            raise _import_failure(name, exc) from None
    if not loaded.failures:  # pragma: no cover - the import failed once, so it fails again
        loaded.failures.append(first)
    loaded.module = module
    return loaded


def no_toolsets(
    target: str, module_name: str, module: types.ModuleType | None = None
) -> TargetError:
    """The usage error of a module target that names no Toolset class.

    Toolset classes the module only imports are named, with the two ways to serve them.
    """
    message = f"{target}: {module_name} defines no Toolset class"
    imported = sorted(
        name
        for name, value in (vars(module).items() if module is not None else ())
        if isinstance(value, type)
        and issubclass(value, Toolset)
        and value is not Toolset
        and not name.startswith("_")
    )
    if imported:
        names = ", ".join(imported)
        message += (
            f"; it imports {names}: list the ones to use in its __all__, or name one "
            f"({target}:{imported[0]})"
        )
    return TargetError(message)


def _only_abstract(target: str, module_name: str, classes: list[type[Toolset]]) -> TargetError:
    """The usage error of a module target whose Toolset classes are all abstract."""
    names = ", ".join(cls.__qualname__ for cls in classes)
    return TargetError(
        f"{target}: every Toolset class {module_name} defines is abstract ({names}); "
        "define a subclass that implements their abstract methods, and name it"
    )


def _abstract_class(target: str, cls: type[Toolset]) -> TargetError:
    """The usage error of a target naming an abstract Toolset class, which cannot be built."""
    methods = ", ".join(sorted(getattr(cls, "__abstractmethods__", ())))
    return TargetError(
        f"{target}: {cls.__qualname__} is abstract (it does not implement {methods}), so it "
        "cannot be built; name a subclass that implements them"
    )


def _attribute_at(owner: object, dotted: str) -> object:
    """The attribute *dotted* (``Outer.Inner``) of *owner*, or None when it has none.

    A module's own ``__getattr__`` (PEP 562) may raise anything for a name it lacks: that is
    having none, not a failure of the command.
    """
    value = owner
    for part in dotted.split("."):
        try:
            value = getattr(value, part, None)
        except Exception:  # noqa: BLE001 - see above
            return None
    return value


def no_class(
    target: str, module_name: str, module: types.ModuleType, class_name: str
) -> TargetError:
    """The usage error of a target whose class *class_name* is not a Toolset class of *module*.

    It says what the name is when it is some other class, and which names would do: the close
    ones ("did you mean"), else every Toolset class the module has.
    """
    message = f"{target}: {module_name} has no Toolset class {class_name!r}"
    value = _attribute_at(module, class_name)
    if value is Toolset:
        message += " (it is the base class Toolset, which has no tools)"
    elif isinstance(value, type):
        message += " (it is a class, not a Toolset)"
    names = [cls.__qualname__ for cls in toolset_classes(module)]
    matches = close_matches(class_name, names)
    if matches:
        message += f"; did you mean {' or '.join(repr(name) for name in matches)}?"
    elif names:
        message += f"; its Toolset classes are {', '.join(names)}"
    return TargetError(message)


def toolset_classes(module: types.ModuleType) -> list[type[Toolset]]:
    """The Toolset classes of *module*, as every command finds them.

    Those it defines, nested ones included, in source order; then those it lists in
    ``__all__`` (a facade, ``typed_toolsets.text``, defines none).
    """
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
    # Read from the namespace: a module's own ``__getattr__`` (PEP 562) may raise anything.
    exported: object = vars(module).get("__all__", ())
    names = typing.cast("list[object]", exported) if isinstance(exported, (list, tuple)) else []
    for name in names:
        value = _attribute_at(module, str(name))
        if (
            isinstance(value, type)
            and issubclass(value, Toolset)
            and value is not Toolset
            and value not in found
        ):
            found.append(value)
    return found


def resolve_class(module: types.ModuleType, qualname: str) -> type[Toolset] | None:
    """The Toolset class *qualname* (``Outer.Inner``) of *module*, or None."""
    value = _attribute_at(module, qualname)
    if isinstance(value, type) and issubclass(value, Toolset) and value is not Toolset:
        return value
    return None


def load_toolsets(target: str) -> list[type[Toolset]]:
    """The Toolset classes *target* names: its class, or every one its module defines.

    Raises:
        TargetError: The target cannot be imported, or names no Toolset class.
        ToolsetDefinitionError: A class of the module is invalid.
    """
    module_text, class_name = split_target(target)
    loaded = load_module(module_text, recover=False)
    module = loaded.module
    if module is None:  # pragma: no cover - only a recovered import has no module
        msg = f"cannot import {loaded.name!r}"
        raise TargetError(msg)
    if class_name is None:
        classes = toolset_classes(module)
        if not classes:
            raise no_toolsets(target, loaded.name, module)
        # An abstract base (its subclasses implement what it leaves out) is not a toolset to
        # build: the module's other classes are, when it has any.
        concrete = [cls for cls in classes if not inspect.isabstract(cls)]
        if not concrete:
            raise _only_abstract(target, loaded.name, classes)
        return concrete
    found = resolve_class(module, class_name)
    if found is None:
        raise no_class(target, loaded.name, module, class_name)
    if inspect.isabstract(found):
        raise _abstract_class(target, found)
    return [found]
