"""PyTorch models: the FastSpeech2-style acoustic model (teacher and student) and the Vocos-style vocoder."""
