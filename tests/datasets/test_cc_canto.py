"""CC-Canto's entries as the third G2P test set: the file's format read as written, what cannot be scored left out."""

import pytest

from cantoedge.datasets.cc_canto import CCCantoError, load_cc_canto, read_entries
from cantoedge.datasets.lexicon import han_runs, syllable_agreement

# Lines in CC-Canto's format (written for this test, not copied from the dictionary).
SAMPLE = """\
# CC-Canto
# A comment line, as the file opens with
and add boilerplate:
一世人 一世人 [yi1 shi4 ren2] {jat1 sai3 jan4} /the whole life/
嗰排 嗰排 [ge3 pai2] {go2 paai4} /recently/
嗰排 嗰排 [ge3 pai2] {go2 paai2} /recently/
食飯 食饭 [shi2 fan4] {sik6 faan6} /to eat/
食飯 食饭 [shi2 fan4] {sik6 faan6} /to have a meal/
好，好 好，好 [hao3 , hao3] {hou2 hou2} /fine, fine/
T恤 T恤 [T xu4] {ti1 seot1} /T-shirt/
陳慧琳 陈慧琳 [chen2 hui4 lin2] {can4 wai6} lam4} /a singer/
打 打 [da3] {daa2 /dozen} /hits/
㗎喇 㗎啦 [ga1 la5] {gaa3 laa3} /particles/
鋪頭 铺头 [pu4 tou2] {pou3 tau2 xx9} /a shop/
"""


@pytest.fixture
def sample(tmp_path):
    path = tmp_path / "cccanto-webdist.txt"
    path.write_text(SAMPLE, encoding="utf-8")
    return path


def test_entries_read_one_way_become_one_utterance_each_and_the_rest_are_left_out(sample):
    items = load_cc_canto(sample)
    assert [(u.text, u.jyutping) for u in items] == [
        ("一世人", ["jat1", "sai3", "jan4"]), ("食飯", ["sik6", "faan6"]), ("㗎喇", ["gaa3", "laa3"])]
    assert {u.split for u in items} == {"test"} and len({u.id for u in items}) == 3
    assert read_entries(sample)["嗰排"] == {("go2", "paai4"), ("go2", "paai2")}  # two readings: left out
    # punctuation or Latin letters in the headword, a broken brace, syllables that do not match: not read at all
    assert not {"好，好", "T恤", "陳慧琳", "打", "鋪頭"} & set(read_entries(sample))


def test_the_entries_are_scored_as_the_corpora_are(sample):
    items = load_cc_canto(sample)
    assert han_runs(items[0]) == [("一世人", ["jat1", "sai3", "jan4"])]
    agreement = syllable_agreement("first syllable wrong", lambda t: ["x"] + ["jat1", "sai3", "jan4"][1:len(t)],
                                   items[:1])
    assert (agreement.matched, agreement.total) == (2, 3)


def test_a_file_that_is_not_utf8_text_is_refused_by_name(tmp_path):
    path = tmp_path / "cccanto.txt"
    path.write_bytes("一世人 一世人 [yi1 shi4 ren2] {jat1 sai3 jan4} /x/\n".encode("big5"))
    with pytest.raises(CCCantoError, match=r"cccanto.txt: not UTF-8 text \(byte 0\)"):
        load_cc_canto(path)


def test_a_file_with_no_entry_is_refused_with_what_was_expected(tmp_path):
    path = tmp_path / "words.txt"
    path.write_text("一世人\tjat1 sai3 jan4\n", encoding="utf-8")
    with pytest.raises(CCCantoError, match="no CC-Canto entry found; expected lines such as"):
        load_cc_canto(path)


@pytest.mark.slow
def test_g2p_eval_adds_the_cc_canto_column_as_the_frontends_read_it(sample, capsys):
    """`corpus g2p-eval --cc-canto FILE` (15 s): the column is each predictor's agreement on the file's entries."""
    import json

    from cantoedge.runtime.context import ContextRules
    from cantoedge.runtime.frontend import Frontend
    from cantoedge.scripts.cli import main

    assert main(["corpus", "g2p-eval", "--cc-canto", str(sample), "--folds", "0", "--json"]) == 0
    sets = json.loads(capsys.readouterr().out)["sets"]
    column = sets["CC-Canto entries (a third team, never tuned on)"]
    assert column["utterances"] == 3 and {r["total"] for r in column["results"]} == {7}
    items = load_cc_canto(sample)
    rows = {r["name"]: r["matched"] for r in column["results"]}
    for name, frontend in (("ToJyutping", Frontend(lexicon={}, context=ContextRules([]), stated=False)),
                           ("cantoedge (ToJyutping + lexicon + context rules)", Frontend())):
        expected = syllable_agreement(name, lambda t, f=frontend: [s for _, s in f.read_han(t)], items)
        assert rows[name] == expected.matched
    # 㗎喇 gaa3 laa3 in both: HKCanCor's 㗎 gaa4 and 喇 laa1 are its spelling (datasets/lexicon.py, spelled_apart)
    assert rows["ToJyutping"] == rows["cantoedge (ToJyutping + lexicon + context rules)"] == 7
