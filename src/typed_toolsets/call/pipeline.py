"""The model-facing call: limits, parsing, validation, structuring, execution and deadlines.

The common case goes through a fast path: generated code that checks and structures the arguments
in one pass, with hooks from the project's cattrs converter. When it refuses the arguments,
jsonschema decides (it has the final word) and explains every problem. Nothing here raises an
`Exception` to the caller; `KeyboardInterrupt`, `SystemExit` and `asyncio.CancelledError`
propagate.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import threading
import time
from collections.abc import Callable, Coroutine
from typing import Any, Final

import attrs

from typed_toolsets.definition.classes import Export
from typed_toolsets.definition.methods import MethodInfo
from typed_toolsets.types.structs import KeyHook, generate_object_structure
from typed_toolsets.types.typespec import Reject, TypeSpec

from .fastpath import MISS, FastArguments, make_fast_arguments
from .jsonin import InvalidJSON, LimitExceeded, NotAnObject, NotJSONValue, load_arguments
from .result import ArgumentProblem, ToolError

__all__ = [
    "MAX_ABANDONED_THREADS",
    "MISS",
    "Failed",
    "call_async",
    "call_sync",
    "execute_async",
    "execute_sync",
    "fast_arguments",
    "prepare",
]

#: At most this many timed-out sync calls may still be running in abandoned threads; past that,
#: calls with a timeout are refused with a ``"limit"`` error until some finish.
MAX_ABANDONED_THREADS: Final = 32
_MAX_MESSAGE: Final = 2000


class Failed:
    """The `ToolError` of a failed call, wrapped.

    Wrapping keeps a tool's own return value from ever being mistaken for a failure: the class is
    private, so no tool returns one.
    """

    __slots__ = ("error",)

    def __init__(self, error: ToolError) -> None:
        self.error = error


Outcome = object  # the tool's return value, or a `Failed`


@attrs.frozen(eq=False)
class _Runtime:
    structure: Callable[[dict[str, object]], dict[str, object]]
    keys: list[KeyHook]
    hooks: dict[str, Callable[[Any], Any]]
    specs: dict[str, TypeSpec]
    lock: threading.Lock = attrs.field(factory=threading.Lock)
    validator: list[Any] = attrs.field(factory=list)


_runtime_lock = threading.Lock()


def _runtime(method: MethodInfo) -> _Runtime:
    runtime = method.cache.get("runtime")
    if runtime is not None:
        return runtime  # type: ignore[no-any-return]
    with _runtime_lock:
        runtime = method.cache.get("runtime")
        if runtime is None:
            from typed_toolsets.types.converter import structure_hook

            hooks = {p.name: structure_hook(p.annotation) for p in method.params}
            keys = [
                KeyHook.for_spec(p.name, p.required, p.spec, hooks[p.name]) for p in method.params
            ]
            structure = generate_object_structure(
                f"arguments of {method.func.__qualname__}", keys, None
            )
            runtime = _Runtime(
                structure=structure,
                keys=keys,
                hooks=hooks,
                specs={p.name: p.spec for p in method.params},
            )
            method.cache["runtime"] = runtime
        return runtime


def fast_arguments(export: Export) -> FastArguments | None:
    """The fast path for *export*'s JSON text arguments (None without orjson), built once."""
    method = export.method
    if method is None:  # pragma: no cover - exports are resolved before proxies exist
        return None
    key = ("fast", export.limits)
    if key not in method.cache:
        method.cache[key] = make_fast_arguments(method, _runtime(method).keys, export.limits)
    found: FastArguments | None = method.cache[key]
    return found


def _validator(method: MethodInfo, runtime: _Runtime) -> Any:
    if not runtime.validator:
        with runtime.lock:
            if not runtime.validator:
                from .validation import make_validator

                runtime.validator.append(make_validator(method.parameters))
    return runtime.validator[0]


# ------------------------------------------------------------------------------------ messages


def _exception_text(exc: BaseException) -> str:
    try:
        text = str(exc)
    except Exception:  # noqa: BLE001 - a broken __str__ must not break the error path
        text = ""
    name = type(exc).__name__
    if not text:
        return name
    if len(text) > _MAX_MESSAGE:
        text = text[: _MAX_MESSAGE - 3] + "..."
    return f"{name}: {text}"


def _internal_error(tool: str, exc: BaseException) -> ToolError:
    # Only a bug in this library gets here; the call still ends in an error, never an exception.
    message = (
        f"Invalid arguments for tool {tool!r}: they could not be processed ({_exception_text(exc)})"
    )
    return ToolError(tool, "arguments", message)


def execution_error(tool: str, exc: BaseException) -> ToolError:
    """The error for an exception raised by the tool itself."""
    return ToolError(tool, "execution", f"Tool {tool!r} failed: {_exception_text(exc)}")


def _arguments_error(
    tool: str, problems: list[tuple[tuple[str | int, ...], str]], more: bool
) -> ToolError:
    from .validation import dotted_path, json_path

    parts = [f"{dotted_path(path)}: {reason}" for path, reason in problems]
    message = f"Invalid arguments for tool {tool!r}: " + "; ".join(parts)
    if more:
        message += "; (more problems not shown)"
    details = tuple(ArgumentProblem(json_path(path), reason) for path, reason in problems)
    return ToolError(tool, "arguments", message, details)


# --------------------------------------------------------------------------------- preparation


def _locate(spec: TypeSpec, value: object) -> tuple[tuple[str | int, ...], BaseException | None]:
    """Find the innermost part of a schema-valid *value* that fails to structure, and why."""
    path: list[str | int] = []
    current_spec, current = spec, value
    while True:
        for segment, child, child_value in current_spec.children(current):
            try:
                child.structure(child_value)
            except Exception:  # noqa: BLE001
                path.append(segment)
                current_spec, current = child, child_value
                break
        else:
            break
    try:
        current_spec.structure(current)
    except Exception as exc:  # noqa: BLE001
        return tuple(path), exc
    return tuple(path), None  # pragma: no cover - structuring failed above, so it fails here


def _type_name(annotation: object) -> str:
    name = getattr(annotation, "__qualname__", None)
    return name if isinstance(name, str) else repr(annotation)


def _slow_path(
    export: Export, method: MethodInfo, runtime: _Runtime, args: dict[str, object]
) -> dict[str, object] | ToolError:
    from .validation import problems as validation_problems

    try:
        found, more = validation_problems(_validator(method, runtime), args)
    except RecursionError:
        message = (
            f"Arguments for tool {export.name!r} are nested too deeply to validate "
            f"(Limits.max_depth={export.limits.max_depth}); send a flatter structure"
        )
        return ToolError(export.name, "limit", message)
    if found:
        return _arguments_error(export.name, found, more)
    # jsonschema accepts the arguments: structure each one, reporting what cannot be built.
    kwargs: dict[str, object] = {}
    failures: list[tuple[tuple[str | int, ...], str]] = []
    for param in method.params:
        if param.name not in args:
            continue
        try:
            kwargs[param.name] = runtime.hooks[param.name](args[param.name])
        except Exception:  # noqa: BLE001
            inner, exc = _locate(param.spec, args[param.name])
            cause = (
                "it does not match the schema"
                if isinstance(exc, Reject) or exc is None
                else _exception_text(exc)
            )
            failures.append(
                (
                    (param.name, *inner),
                    f"could not be converted to {_type_name(param.annotation)}: {cause}",
                )
            )
    if failures:
        return _arguments_error(export.name, failures, more=False)
    return kwargs


def prepare(export: Export, arguments: object) -> dict[str, object] | ToolError:
    """Check and structure *arguments* for *export*: the keyword arguments, or why not."""
    name = export.name
    try:
        args = load_arguments(arguments, export.limits)
    except LimitExceeded as exc:
        return ToolError(name, "limit", f"Arguments for tool {name!r} are {exc}")
    except InvalidJSON as exc:
        return ToolError(name, "arguments", f"Invalid JSON arguments for tool {name!r}: {exc}")
    except NotAnObject as exc:
        return ToolError(name, "arguments", f"Arguments for tool {name!r} {exc}")
    except NotJSONValue as exc:
        return _arguments_error(name, [(tuple(exc.path), str(exc))], more=False)
    method = export.method
    if method is None:  # pragma: no cover - exports are resolved before proxies exist
        return ToolError(name, "arguments", f"Tool {name!r} is not ready")
    runtime = _runtime(method)
    try:
        return runtime.structure(args)
    except Exception:  # noqa: BLE001 - any refusal is explained by the slow path below
        return _slow_path(export, method, runtime, args)


# ----------------------------------------------------------------------------------- execution


class _Abandoned:
    """Counts timed-out sync calls whose threads are still running."""

    def __init__(self) -> None:
        self.count = 0
        self.lock = threading.Lock()


_abandoned = _Abandoned()


def _start_thread(
    name: str, func: Callable[..., Any], kwargs: dict[str, object]
) -> tuple[concurrent.futures.Future[Any], dict[str, bool]]:
    future: concurrent.futures.Future[Any] = concurrent.futures.Future()
    state = {"abandoned": False}

    def worker() -> None:
        try:
            result = func(**kwargs)
        except BaseException as exc:  # noqa: BLE001 - handed to the waiting caller
            future.set_exception(exc)
        else:
            future.set_result(result)
        finally:
            with _abandoned.lock:
                if state["abandoned"]:
                    _abandoned.count -= 1

    thread = threading.Thread(target=worker, name=f"typed_toolsets {name}", daemon=True)
    thread.start()
    return future, state


def _too_many_abandoned(name: str) -> ToolError | None:
    with _abandoned.lock:
        if _abandoned.count >= MAX_ABANDONED_THREADS:
            message = (
                f"Tool {name!r} was not started: {_abandoned.count} earlier calls that timed out "
                f"are still running (the limit is {MAX_ABANDONED_THREADS} abandoned threads); "
                "try again later"
            )
            return ToolError(name, "limit", message)
    return None


def _abandon(future: concurrent.futures.Future[Any], state: dict[str, bool]) -> bool:
    """Mark a timed-out call abandoned; False if it finished in the meantime."""
    with _abandoned.lock:
        if future.done():
            return False
        state["abandoned"] = True
        _abandoned.count += 1
        return True


def _timeout_error(export: Export, waited: float, *, sync: bool) -> ToolError:
    timeout = export.limits.timeout
    note = "; its thread may still be running" if sync else "; it was cancelled"
    message = (
        f"Tool {export.name!r} timed out: no result after {waited:.2f} s "
        f"(Limits.timeout={timeout}){note}"
    )
    return ToolError(export.name, "timeout", message)


def _run_sync_with_timeout(
    export: Export, bound: Callable[..., Any], kwargs: dict[str, object], timeout: float
) -> Outcome:
    refused = _too_many_abandoned(export.name)
    if refused is not None:
        return Failed(refused)
    started = time.monotonic()
    future, state = _start_thread(export.name, bound, kwargs)
    try:
        return future.result(timeout)
    except concurrent.futures.TimeoutError:
        if _abandon(future, state):
            return Failed(_timeout_error(export, time.monotonic() - started, sync=True))
        # It finished right at the deadline: take its outcome.
    except Exception as exc:  # noqa: BLE001
        return Failed(execution_error(export.name, exc))
    try:
        return future.result(0)
    except Exception as exc:  # noqa: BLE001
        return Failed(execution_error(export.name, exc))


async def _await_with_timeout(export: Export, coroutine: Coroutine[Any, Any, Any]) -> Outcome:
    timeout = export.limits.timeout
    if timeout is None:
        try:
            return await coroutine
        except Exception as exc:  # noqa: BLE001
            return Failed(execution_error(export.name, exc))
    started = time.monotonic()
    task = asyncio.ensure_future(coroutine)
    try:
        done, _ = await asyncio.wait({task}, timeout=timeout)
    except asyncio.CancelledError:
        task.cancel()
        raise
    if not done:
        task.cancel()
        with contextlib.suppress(BaseException):  # the cancellation we asked for
            await task
        return Failed(_timeout_error(export, time.monotonic() - started, sync=False))
    try:
        return task.result()
    except Exception as exc:  # noqa: BLE001
        return Failed(execution_error(export.name, exc))


def _async_in_sync(export: Export, bound: Callable[..., Any], kwargs: dict[str, object]) -> Outcome:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(_await_with_timeout(export, bound(**kwargs)))
    message = (
        f"Tool {export.name!r} is async and an event loop is running in this thread; use "
        "`await proxy.ainvoke(...)` or `await proxy.adynamic_call(...)` instead"
    )
    return Failed(ToolError(export.name, "execution", message))


def execute_sync(export: Export, bound: Callable[..., Any], kwargs: dict[str, object]) -> Outcome:
    """Run the tool with checked arguments.

    A sync tool runs directly, or in a thread when it has a deadline; an async tool runs to
    completion when no event loop runs in this thread.
    """
    method = export.method
    if method is not None and method.is_async:
        return _async_in_sync(export, bound, kwargs)
    timeout = export.limits.timeout
    if timeout is not None:
        return _run_sync_with_timeout(export, bound, kwargs, timeout)
    try:
        return bound(**kwargs)
    except Exception as exc:  # noqa: BLE001
        return Failed(execution_error(export.name, exc))


def _checked(
    export: Export, arguments: object, fast: FastArguments | None
) -> dict[str, object] | Failed:
    """The keyword arguments, by the fast path when it vouches for them, else the exact path."""
    try:
        kwargs = fast(arguments) if fast is not None else MISS
        prepared = prepare(export, arguments) if kwargs is MISS else kwargs
    except Exception as exc:  # noqa: BLE001 - a bug here must still not escape
        return Failed(_internal_error(export.name, exc))
    if isinstance(prepared, ToolError):
        return Failed(prepared)
    return prepared  # type: ignore[return-value]  # pyright: ignore[reportReturnType]


def call_sync(
    export: Export,
    bound: Callable[..., Any],
    arguments: object,
    fast: FastArguments | None = None,
) -> Outcome:
    """Run the whole model-facing call synchronously; never raises an `Exception`."""
    kwargs = _checked(export, arguments, fast)
    if isinstance(kwargs, Failed):
        return kwargs
    return execute_sync(export, bound, kwargs)


async def call_async(
    export: Export,
    bound: Callable[..., Any],
    arguments: object,
    fast: FastArguments | None = None,
) -> Outcome:
    """Run the whole model-facing call from async code; sync tools run in a worker thread."""
    kwargs = _checked(export, arguments, fast)
    if isinstance(kwargs, Failed):
        return kwargs
    return await execute_async(export, bound, kwargs)


async def execute_async(
    export: Export, bound: Callable[..., Any], kwargs: dict[str, object]
) -> Outcome:
    """Run the tool with checked arguments from async code (a sync tool in a worker thread)."""
    method = export.method
    if method is not None and method.is_async:
        return await _await_with_timeout(export, bound(**kwargs))
    timeout = export.limits.timeout
    if timeout is None:
        try:
            return await asyncio.to_thread(bound, **kwargs)
        except Exception as exc:  # noqa: BLE001
            return Failed(execution_error(export.name, exc))
    refused = _too_many_abandoned(export.name)
    if refused is not None:
        return Failed(refused)
    started = time.monotonic()
    future, state = _start_thread(export.name, bound, kwargs)
    wrapped = asyncio.wrap_future(future)
    try:
        done, _ = await asyncio.wait({wrapped}, timeout=timeout)
    except asyncio.CancelledError:
        _abandon(future, state)
        raise
    if not done and _abandon(future, state):
        return Failed(_timeout_error(export, time.monotonic() - started, sync=True))
    try:
        return future.result(0)
    except Exception as exc:  # noqa: BLE001
        return Failed(execution_error(export.name, exc))
