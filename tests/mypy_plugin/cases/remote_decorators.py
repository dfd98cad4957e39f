# clean: decorators used by clean_module.py, in their own module.
import enum
import functools
from collections.abc import Awaitable, Callable, Iterator
from typing import Any, ParamSpec, Protocol, TypeVar

P = ParamSpec("P")
R = TypeVar("R")
R_co = TypeVar("R_co", covariant=True)


def logged(func: Callable[P, R]) -> Callable[P, R]:
    @functools.wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        return func(*args, **kwargs)

    return wrapper


def listify(func: Callable[P, Iterator[R]]) -> Callable[P, list[R]]:
    @functools.wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> list[R]:
        return list(func(*args, **kwargs))

    return wrapper


def loose(func: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        return func(*args, **kwargs)

    return wrapper


def timed(func: Callable[P, Awaitable[R]]) -> Callable[P, Awaitable[R]]:
    return func


class Status(enum.Enum):
    """Not the Status of the modules that use these decorators."""

    UP = 1


class Retrying(Protocol[P, R_co]):
    """A decorated method: still callable as the method, with an attribute of its own."""

    retries: int

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R_co: ...


def retrying(func: Callable[P, R]) -> Retrying[P, R]:
    @functools.wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        return func(*args, **kwargs)

    wrapper.retries = 3  # type: ignore[attr-defined]  # the Protocol's attribute, set once
    return wrapper  # type: ignore[return-value]  # a function carrying the attribute
