# A lambda a class attribute holds is a plain function at run time, so it can be exported; none
# of its parameters can have an annotation, and each is judged as a `def`'s would be. Problems
# are reported on the declaration.
from typed_toolsets import Toolset, tool


class Ping(Toolset):
    exports = (tool("ping"),)
    ping = lambda self: "pong"  # noqa: E731


class Echo(Toolset):
    exports = (
        tool("echo"),  # E: Echo.echo: parameter 'text' is positional-only; tools are called with keywords, remove the '/'  [toolset-signature]  # E: Echo.echo: '*more' is not supported; declare keyword parameters instead  [toolset-signature]  # E: Echo.echo: parameter '_Echo__key' has no type annotation; annotate it so it gets a JSON Schema  [toolset-signature]  # E: Echo.echo: '**rest' is not supported; declare keyword parameters instead  [toolset-signature]
    )
    echo = lambda self, text, /, *more, __key=1, **rest: text  # noqa: E731


class NoSelf(Toolset):
    exports = (
        tool("now"),  # E: NoSelf.now: it takes no `self`; a tool is an instance method: make `self` its first parameter  [toolset-signature]
        tool("star"),  # E: NoSelf.star: it is a function named '<lambda>' that takes only *args and **kwargs: a decorator without functools.wraps hides the method's parameters; decorate its wrapper with @functools.wraps(<the method>)  [toolset-signature]
        tool("keyword"),  # E: NoSelf.keyword: it takes no `self`; a tool is an instance method: make `self` its first parameter  [toolset-signature]
    )
    now = lambda: 1  # noqa: E731
    star = lambda *args: 1  # noqa: E731
    keyword = lambda *, a: 1  # noqa: E731
