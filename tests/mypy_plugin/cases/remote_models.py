# clean: types used by other case files.
import enum

import attrs


class Priority(enum.Enum):
    LOW = "low"
    HIGH = "high"


@attrs.define
class Item:
    name: str
