"""DRUP proofs of what the engine answers: written from the core's proof log (`write`:
ratings, closures, searches, uniqueness, explanations) and checked by an independent
checker that shares no code with the engine (`check`)."""
