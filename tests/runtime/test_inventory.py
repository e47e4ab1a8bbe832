import json

import pytest

from cantoedge.runtime.inventory import Inventory, InventoryError, load_inventory, syllable_index
from cantoedge.runtime.jyutping import ONSETS, RIMES


def test_bundled_inventory_covers_the_grammar_and_is_versioned():
    inv = load_inventory()
    assert inv.version == 1
    assert inv.phones[0] == "<pad>"
    assert all(inv.id(o + "-") > 0 for o in ONSETS)
    assert all(inv.id(r) > 0 for r in RIMES)
    assert inv.n_tones == 7


def test_inventory_ids_are_frozen():
    # Graphs are trained against these ids: changing them needs a new inventory version.
    inv = load_inventory()
    assert [inv.id(p) for p in ("<sil>", "<,>", "<.>", "<?>", "<!>", "b-", "j-", "aa", "ng")] == \
        [1, 2, 3, 4, 5, 6, 24, 25, 85]


def test_inventory_missing_a_rime_is_refused():
    inv = load_inventory()
    phones = [p for p in inv.phones if p != "oek"]
    with pytest.raises(InventoryError, match="oek"):
        Inventory.from_json(json.dumps({"version": 9, "phones": phones, "tones": list("0123456")}))


def test_syllable_index_groups_onset_with_rime():
    assert syllable_index(["<sil>", "n-", "ei", "aa", "<,>", "h-", "ou", "<sil>"]) == [-1, 0, 0, 1, -1, 2, 2, -1]
