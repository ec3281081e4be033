"""Paper A (Hayase, Collins, Karakida): Gaussian equivalence of softmax attention's bulk
spectrum."""
