"""`ScriptedModel`: a model that replays fixed steps, for tests, demos and dry runs."""

from __future__ import annotations

import copy
import typing
from collections.abc import Iterable, Mapping
from typing import Any

from typed_toolsets._public import public_in

from .prompt import Transcript

__all__ = ["ScriptedModel"]


@public_in("typed_toolsets.agent")
class ScriptedModel:
    """Replays fixed steps: the reply to the transcript with *n* turns is ``steps[n]``.

    The step is chosen by the length of the transcript, not by a counter, so one
    `ScriptedModel` can drive any number of runs, one after another or at once, and each run
    sees the same replies.

    Args:
        steps: The replies, in order: mappings (``{"thought": ..., "action": ...,
            "action_input": {...}}``) or JSON texts, exactly as a real model would send them
            (malformed ones included, to test how the loop answers them).

    Raises:
        TypeError: *steps* is one step (a mapping or a text) rather than a list of them, or a
            step is neither a mapping nor text.
    """

    __slots__ = ("_steps",)

    def __init__(self, steps: Iterable[Mapping[str, Any] | str | bytes]) -> None:
        if isinstance(typing.cast(object, steps), (Mapping, str, bytes)):
            # Iterated, a text is its characters and a mapping its keys: each a step.
            msg = (
                f"steps must be a list of steps, got one {type(steps).__name__}: "
                "pass [step] for a script of one step"
            )
            raise TypeError(msg)
        found: list[Mapping[str, Any] | str | bytes] = []
        for index, step in enumerate(steps):
            if not isinstance(typing.cast(object, step), (Mapping, str, bytes)):
                msg = (
                    f"step {index} must be a mapping or JSON text (what a model returns), got "
                    f"{type(step).__name__}"
                )
                raise TypeError(msg)
            found.append(copy.deepcopy(step))
        self._steps = tuple(found)

    @property
    def steps(self) -> tuple[Mapping[str, Any] | str | bytes, ...]:
        """The scripted replies."""
        return self._steps

    def __len__(self) -> int:
        return len(self._steps)

    def __repr__(self) -> str:
        return f"ScriptedModel(<{len(self._steps)} steps>)"

    def __call__(self, transcript: Transcript) -> Mapping[str, Any] | str | bytes:
        """The scripted reply for this point of the run (a copy: the loop may keep it).

        Raises:
            RuntimeError: The script has no step left for this turn.
        """
        index = len(transcript.turns)
        if index >= len(self._steps):
            msg = (
                f"ScriptedModel has {len(self._steps)} steps, and the run asked for step "
                f"{index + 1}: end the script with a finish step, or add steps"
            )
            raise RuntimeError(msg)
        return copy.deepcopy(self._steps[index])
