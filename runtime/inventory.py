"""The fixed, versioned token inventory: every graph and manifest is read against one version of it."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache

from .datafiles import read_package_text
from .jyutping import ONSETS, RIMES, Syllable

PAD, SIL = "<pad>", "<sil>"
PAUSE_COMMA, PAUSE_STOP, PAUSE_QUESTION, PAUSE_EXCLAIM = "<,>", "<.>", "<?>", "<!>"
PAUSES = (SIL, PAUSE_COMMA, PAUSE_STOP, PAUSE_QUESTION, PAUSE_EXCLAIM)
# When punctuation runs together ("?!", "，。") the strongest mark decides the one pause token kept.
PAUSE_STRENGTH = {SIL: -1, PAUSE_COMMA: 0, PAUSE_STOP: 1, PAUSE_EXCLAIM: 2, PAUSE_QUESTION: 3}


class InventoryError(ValueError):
    """An inventory file that does not match the Jyutping grammar or this code."""


@dataclass(frozen=True)
class Inventory:
    version: int
    phones: tuple[str, ...]
    n_tones: int

    def __post_init__(self) -> None:
        missing = [p for p in (PAD, *PAUSES) if p not in self.phones]
        missing += [o + "-" for o in ONSETS if o + "-" not in self.phones]
        missing += [r for r in RIMES if r not in self.phones]
        if missing:
            raise InventoryError(f"inventory v{self.version} lacks {missing}")
        if len(set(self.phones)) != len(self.phones):
            raise InventoryError(f"inventory v{self.version} has duplicate phones")
        if self.phones[0] != PAD:
            raise InventoryError("inventory id 0 must be <pad>")
        object.__setattr__(self, "_ids", {p: i for i, p in enumerate(self.phones)})

    def id(self, phone: str) -> int:
        return self._ids[phone]  # type: ignore[attr-defined]

    def unknown(self, phones) -> list[str]:
        """The names among ``phones`` that this inventory does not have."""
        return [p for p in phones if p not in self._ids]  # type: ignore[attr-defined]

    def phone(self, idx: int) -> str:
        return self.phones[idx]

    def syllable_phones(self, syl: Syllable) -> list[str]:
        """Onset (if any) then rime: the phones one syllable contributes to the token stream."""
        return ([syl.onset + "-"] if syl.onset else []) + [syl.rime]

    def is_pause(self, idx: int) -> bool:
        return self.phones[idx] in PAUSES

    @classmethod
    def from_json(cls, text: str) -> Inventory:
        data = json.loads(text)
        try:
            return cls(int(data["version"]), tuple(data["phones"]), len(data["tones"]))
        except (KeyError, TypeError) as exc:
            raise InventoryError(f"malformed inventory file: {exc}") from exc


@lru_cache(maxsize=1)
def load_inventory() -> Inventory:
    """The inventory shipped with the package (runtime/data/inventory.json)."""
    text = read_package_text("data/inventory.json")
    return Inventory.from_json(text)


def syllable_index(phones: list[str] | tuple[str, ...]) -> list[int]:
    """Which syllable each token belongs to (-1 for pauses): an onset joins the rime after it."""
    out, count = [], 0
    for phone in phones:
        if phone in PAUSES or phone == PAD:
            out.append(-1)
        elif phone.endswith("-"):
            out.append(count)
        else:
            out.append(count)
            count += 1
    return out
