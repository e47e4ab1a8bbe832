"""Training targets from the corpus: the cleaned F0 track the contour stage learns."""

import numpy as np

from cantoedge.export.data import clean_voicing


def test_clean_voicing_unvoices_octave_errors_and_keeps_the_contour():
    f0 = np.array([0.0, 480.0, 90.0, 95.0, 100.0, 88.0, 45.0, 0.0, 300.0], np.float32)
    voiced = f0 > 0
    kept = clean_voicing(f0, voiced, max_deviation_st=6.0)
    # the median is 92.5 Hz: 480 and 300 Hz are 28 and 20 semitones above it, 45 Hz 12 below
    assert kept.tolist() == [False, False, True, True, True, True, False, False, False]
    assert voiced.tolist()[1] is True  # the input is not changed in place
    assert clean_voicing(f0, np.zeros(9, bool), 6.0).tolist() == [False] * 9
