"""What a benchmark run reports, a module per job:

- `tallies`: the records (`Summary` per set, encoding and solver; `DepthProfile` per set
  and encoding) and the running counters that make them a grid at a time;
- `tables`: the Markdown tables and the run's Markdown document;
- `metadata`: the machine, the software and the commit a run was made with;
- `json_file`: results.json (what `benchmarks compare` reads);
- `csv_file`: results.csv, one row per grid and solver.
"""
