"""The decoder's pitch-head loss: contour error on voiced frames only, voicing everywhere in the utterance."""

import math

import pytest
import torch

from cantoedge.export.losses import frame_pitch_losses


def test_frame_pitch_loss_counts_contour_on_voiced_frames_and_voicing_on_all():
    log_f0 = torch.log(torch.tensor([[100.0, 110.0, 1.0, 1.0]]))
    voiced = torch.tensor([[True, True, False, False]])
    mask = torch.tensor([[True, True, True, False]])  # the last frame is padding
    sure = 30.0
    logits = torch.where(voiced, sure, -sure)
    exact = frame_pitch_losses(torch.stack([log_f0, logits], dim=1), log_f0, voiced, mask)
    assert float(exact["frame_f0"]) == 0.0 and float(exact["voicing"]) < 1e-6
    # a semitone sharp on one voiced frame; any value on unvoiced or padded frames is free
    off = log_f0.clone()
    off[0, 1] += math.log(2) / 12
    off[0, 2:] = 7.0
    wrong_voicing = logits.clone()
    wrong_voicing[0, 3] = sure  # padding: not counted
    out = frame_pitch_losses(torch.stack([off, wrong_voicing], dim=1), log_f0, voiced, mask)
    assert float(out["frame_f0"]) == pytest.approx(((math.log(2) / 12) / 0.25) ** 2 / 2, rel=1e-5)
    assert float(out["voicing"]) < 1e-6


def test_shape_loss_sees_a_flattened_contour_and_ignores_the_level():
    """A rising token predicted flat at the right mean costs its shape; the same rise shifted by a whole
    semitone costs nothing (level is the F0 loss's job); masked frames and other tokens do not count."""
    from cantoedge.export.losses import within_token_shape_loss

    st = math.log(2) / 12
    rise = torch.log(torch.tensor(100.0)) + st * torch.tensor([-1.0, 0.0, 1.0, 0.0, 0.0])  # token 0: 3 frames
    target = rise[None]
    durations = torch.tensor([[3, 2]])
    mask = torch.tensor([[True, True, True, True, True]])
    assert float(within_token_shape_loss(target + st, target, mask, durations)) == pytest.approx(0.0, abs=1e-9)
    flat = target.clone()
    flat[0, :3] = target[0, :3].mean()
    # token 0: errors -1, 0, +1 semitone; token 1 (2 frames) is under min_frames and not counted
    assert float(within_token_shape_loss(flat, target, mask, durations)) == pytest.approx(2 / 3, rel=1e-5)
    masked = mask.clone()
    masked[0, 2] = False  # now token 0 has 2 frames: nothing to score
    assert float(within_token_shape_loss(flat, target, masked, durations)) == 0.0

