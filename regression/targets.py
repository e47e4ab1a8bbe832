"""The INT8 targets against FP32, defined once: calibration's layer choice, the INT8 report and the regression
suite all judge a build by them."""

from __future__ import annotations

from dataclasses import asdict, dataclass


@dataclass(frozen=True)
class Int8Targets:
    tone_band_db: float = 0.3  # median tone-band (50-300 Hz) log-mel error, dB
    f0_cents: float = 10.0  # median F0 RMSE over frames voiced in both, cents
    tone_accuracy_drop: float = 0.005  # FP32's tone accuracy minus the build's (a fraction: 0.005 = 0.5 points)
    speedup: float = 1.5  # FP32 / INT8 decoder+vocoder window time

    def checks(self, tone_band_db: float, f0_cents: float, tone_accuracy_drop: float) -> dict[str, bool]:
        """Which accuracy targets a build meets (speed is judged where it is measured)."""
        return {"tone_band_db": tone_band_db <= self.tone_band_db, "f0_cents": f0_cents <= self.f0_cents,
                "tone_accuracy_drop": tone_accuracy_drop <= self.tone_accuracy_drop}

    def to_json(self) -> dict:
        return asdict(self)


INT8_TARGETS = Int8Targets()
