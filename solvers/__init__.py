"""SAT solvers: the home-grown engine, the exam-faithful reference, and adapters."""
