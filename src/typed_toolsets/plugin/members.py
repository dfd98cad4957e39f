"""An attribute of a Toolset class found by name along its MRO, as the run time finds it.

mypy's view differs from the class's ``__dict__`` at run time: it keeps a private ``__x``
unmangled, knows the members bound only under ``if TYPE_CHECKING:`` or deleted, the attributes
set as ``self.x = ...`` in a method, and no slot of a class whose bases have no ``__slots__``.
"""

from __future__ import annotations

from mypy.nodes import MypyFile, SymbolNode, TypeInfo, Var

from typed_toolsets.rules.names import written_names

from .metadata import absent_members_of, alias_of, lambda_of, slots_of

__all__ = ["Found", "lookup_member"]


class Found:
    """An attribute found by name in a class's MRO: the class that has it, and its node.

    For a method alias (``search = find``), ``node`` is the function it names, ``alias`` the
    attribute's own node, and ``defined_in`` / ``module`` where that function is defined (no
    class for a module-level function).
    """

    def __init__(
        self,
        owner: TypeInfo,
        node: SymbolNode | None,
        alias: SymbolNode | None = None,
        defined_in: tuple[TypeInfo | None, str] | None = None,
    ) -> None:
        self.owner = owner
        self.node = node
        self.alias = alias
        self.defined_in, self.module = defined_in or (owner, owner.module_name)
        #: For a lambda the class body binds (a plain function at run time): its parameters.
        self.lambda_parameters: list[tuple[str, str]] | None = None
        #: Whether it is a slot of *owner* (its ``__slots__`` names it; mypy may not know it).
        self.slot = False


def _resolve(
    modules: dict[str, MypyFile], fullname: str
) -> tuple[TypeInfo | None, SymbolNode | None, str]:
    """What *fullname* names: ``(class defining it or None, node, module)``."""
    parts = fullname.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        module_name = ".".join(parts[:cut])
        module = modules.get(module_name)
        if module is None:
            continue
        owner: TypeInfo | None = None
        table = module.names
        node: SymbolNode | None = None
        for part in parts[cut:]:
            sym = table.get(part)
            node = sym.node if sym is not None else None
            if isinstance(node, TypeInfo):
                owner, table = node, node.names
            elif part != parts[-1]:
                return None, None, module_name
        return (owner if owner is not node else None), node, module_name
    return None, None, ""


def lookup_member(info: TypeInfo, name: str, modules: dict[str, MypyFile]) -> Found | None:
    """The attribute *name* of *info* at run time: mypy keeps a private ``__x`` unmangled."""
    for klass in info.mro:
        if name in slots_of(klass):
            found = Found(klass, None)  # its descriptor, not mypy's node of `self.<name> = ...`
            found.slot = True
            return found
        hidden = absent_members_of(klass)
        for written in written_names(klass.name, name):
            sym = klass.names.get(written)
            if sym is None or written in hidden:  # absent at run time: the bases are looked in
                continue
            if sym.implicit:
                continue  # `self.<name> = ...` in a method: an instance's, not the class's
            parameters = lambda_of(klass, written)
            if parameters is not None and isinstance(sym.node, Var):
                found = Found(klass, sym.node)
                found.lambda_parameters = parameters
                return found
            alias = alias_of(klass, written)
            if alias is not None and isinstance(sym.node, Var):
                owner, target, module = _resolve(modules, alias[0])
                if target is not None:
                    return Found(klass, target, sym.node, (owner, module))
            return Found(klass, sym.node)
    return None
