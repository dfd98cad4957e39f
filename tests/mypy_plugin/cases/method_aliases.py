# A method alias is the method it names: its problems are the method's, reported on it.
from typed_toolsets import Toolset, tool

from remote_base import RemoteBase
from remote_exports import measure


def helper(self: object, *, data: bytes) -> int:  # E: Aliases.with_helper: parameter 'data' has type bytes, which has no JSON Schema (bytes cannot be sent as JSON; use str (for example base64 text))  [toolset-param-type]
    return len(data)


class Aliases(Toolset):
    exports = (tool("search"), tool("with_helper"), tool("remote"), tool("number"))  # E: Aliases.number: 'number' is an attribute, not a method; only plain instance methods can be exported  [toolset-not-a-method]

    def find(self, query: str, /) -> list[str]:  # E: Aliases.search: parameter 'query' is positional-only; tools are called with keywords, remove the '/'  [toolset-signature]
        return [query]

    search = find
    with_helper = helper
    remote = RemoteBase.assign
    number = 3


class RemoteFunction(Toolset):
    # The function is in another module: reported on the declaration.
    exports = (tool("size"),)  # E: RemoteFunction.size: parameter 'data' has type bytes, which has no JSON Schema (bytes cannot be sent as JSON; use str (for example base64 text))  [toolset-param-type]

    size = measure


@tool
def marked(self: object, *, data: bytes) -> int:  # E: Marked.held: parameter 'data' has type bytes, which has no JSON Schema (bytes cannot be sent as JSON; use str (for example base64 text))  [toolset-param-type]
    return len(data)


class Marked(Toolset):
    # A function marked @tool outside the class is the attribute's tool, named after it.
    held = marked


class Builtins(Toolset):
    # A builtin is implemented in C: no function the class could bind as a method.
    exports = (tool("length"),)  # E: Builtins.length: 'length' is an attribute, not a method; only plain instance methods can be exported  [toolset-not-a-method]

    length = len
