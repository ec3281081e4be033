"""Paper C: spectral degeneration of softmax attention (canonical model, stable rank, MiniLM)."""
