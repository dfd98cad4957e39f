"""The definition rules, shared by the runtime and the mypy plugin.

Standard library only, and nothing here imports the rest of the package but `typed_toolsets._public`
(itself standard library only: the public record `Problem` names its public module): the mypy
plugin loads these modules on every run and must stay cheap. Every other layer may import them.
"""
