"""On-device runtime: text frontend, graph contracts and synthesis; numpy only, never torch."""
