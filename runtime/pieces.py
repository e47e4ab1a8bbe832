"""Long token streams cut into pieces the encoder takes whole: its position table ends at ``max_tokens``
(a 540-character text died with an onnxruntime error), so text is spoken clause by clause."""

from __future__ import annotations

from collections.abc import Sequence


def piece_spans(phones: Sequence[str], pauses: Sequence[str], syllable_index: Sequence[int],
                limit: int, always_after: Sequence[str] = ()) -> list[tuple[int, int]]:
    """[start, stop) spans covering the whole stream, each at most ``limit`` tokens once a leading <sil> is
    added to every piece but the first. Cuts fall after pause tokens where they can, else between syllables,
    and after every ``always_after`` pause (sentence ends, for streaming) whatever the length."""
    n = len(phones)
    if limit < 4:
        raise ValueError(f"a piece limit of {limit} tokens cannot hold a syllable")
    if always_after:
        bounds = [0, *(i + 1 for i, p in enumerate(phones[:-1]) if p in always_after), n]
        spans: list[tuple[int, int]] = []
        for a, b in zip(bounds, bounds[1:]):
            if a == 0:
                spans += piece_spans(phones[a:b], pauses, syllable_index[a:b], limit)
            else:  # this sentence's first piece gets a <sil> in front too: a stand-in holds its place
                sub = piece_spans(["", *phones[a:b]], pauses, [-1, *syllable_index[a:b]], limit)
                spans += [(max(a + s - 1, a), a + e - 1) for s, e in sub]
        return [(s, e) for s, e in spans if e > s]
    pause_cuts = {i + 1 for i, p in enumerate(phones) if p in pauses}
    syllable_cuts = {i for i in range(1, n) if syllable_index[i] != syllable_index[i - 1] or phones[i - 1] in pauses}
    spans, start = [], 0
    while True:
        room = limit - (1 if start else 0)  # pieces after the first get a <sil> in front
        if n - start <= room:
            spans.append((start, n))
            return spans
        end = start + room
        cut = max((c for c in pause_cuts if start < c <= end), default=None)
        if cut is None:
            cut = max((c for c in syllable_cuts if start < c <= end), default=end)
        spans.append((start, cut))
        start = cut
