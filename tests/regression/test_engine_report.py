"""`cantoedge regress engines`: built folders against the FP32 graphs, per graph and end to end."""

import json

import numpy as np
import pytest

from cantoedge.regression.engine_report import engine_report, markdown


@pytest.fixture(scope="module")
def rows(ort_voice_folders, tiny_int8_graphs, tiny_corpus):
    folders = {"ort-fp32": ort_voice_folders["fp32"], "ort-int8": ort_voice_folders["int8"]}
    return engine_report(tiny_int8_graphs, folders, tiny_corpus, split="val", limit=3, repeats=2)


def test_a_folder_built_from_the_fp32_graphs_matches_them(rows):
    fp32 = rows[0]
    assert (fp32.name, fp32.target, fp32.precision, fp32.backends) == ("ort-fp32", "ort", "fp32", "ort/ort/ort")
    assert fp32.utterances == 3 and fp32.tone_band_db["median"] < 1e-3 and fp32.mel_l1["median"] < 1e-4
    assert fp32.decoder_f0_cents["median"] < 0.1 and fp32.vocoder_snr_min > 60
    assert fp32.tone_accuracy == fp32.reference_tone_accuracy


def test_an_int8_folder_shows_its_quantisation_error(rows):
    int8 = rows[1]
    assert int8.mel_l1["median"] > 1e-3 and int8.vocoder_snr_min < rows[0].vocoder_snr_min
    assert np.isfinite(int8.vocoder_snr_db["median"]) and int8.decoder_ms > 0 and int8.vocoder_ms > 0
    table = markdown(rows)
    assert "| ort-int8 | ort/ort/ort |" in table and "3 held-out utterances" in table


def test_the_command_writes_the_table_and_its_json(ort_voice_folders, tiny_int8_graphs, tiny_corpus, tmp_path, capsys):
    from cantoedge.scripts.cli import main

    out = tmp_path / "engines.md"
    assert main(["regress", "engines", "--voice", f"int8={ort_voice_folders['int8']}", "--reference",
                 str(tiny_int8_graphs), "--corpus", str(tiny_corpus), "--split", "val", "--limit", "2",
                 "--out", str(out)]) == 0
    assert "| int8 |" in out.read_text() and json.loads(out.with_suffix(".json").read_text())[0]["name"] == "int8"
    with pytest.raises(SystemExit):
        main(["regress", "engines", "--voice", "no-equals-sign", "--corpus", str(tiny_corpus)])
    assert "NAME=PATH" in capsys.readouterr().err
