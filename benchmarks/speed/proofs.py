"""Question 6: proofs.

`solvers rate --no-length` (depth up to 2) over the 17-clue list and the forum's
hardest, with `--proof FILE` (every grid's DRUP proof in one file) against without: the
processor time (user + system) of the command less start-up (the wall ratio beside it),
the proofs' size, and the time the checker (`solvers.proofs.check`, PySAT's propagation)
takes per proof on the first `--check-limit` of them, each verified against the grid's
formula; then `--proof FOLDER` (each proof beside the CNF it refutes), and the DRUP and
the LRAT check of the same refutations.  Beside the folder's figure, the file system's
own part: creating and filling as many files of the same sizes, in one write each.
"""

from __future__ import annotations

from pathlib import Path

from benchmarks.speed.common import GEOMETRY, grid_lines, ms, timed
from benchmarks.speed.record import Record
from benchmarks.speed.runs import run_with_usage
from benchmarks.timing import median

PROOF_RUNS = 3  # runs of rate with and without --proof, alternated (medians)


def proof_rate_run(path: Path, folder: Path, proofs: Path | None) -> tuple[float, float]:
    """Run `solvers rate --no-length` on a file, writing its proofs into `proofs` (None:
    none); return (wall seconds, processor seconds: user + system)."""
    argv = ["solvers", "rate", str(path), "--no-length", "--quiet"]
    argv += [] if proofs is None else ["--proof", str(proofs)]
    with open(folder / "rate.out", "wb") as handle:
        wall, usage, _ = run_with_usage(argv, handle)
    return wall, usage.ru_utime + usage.ru_stime


def proof_figures(source: str, grids: list[tuple[int, ...]], folder: Path, check: int,
                  record: Record) -> None:  # fmt: skip
    """Question 6 on one list: rate with and without proofs, their size, checking them."""
    from encoder.dimacs import parse_cnf
    from encoder.emit import encode_dimacs
    from solvers.proofs.check import PROOF_SECTION, check_proof, parse_proof

    path, one = folder / "grids.txt", folder / "one.txt"
    lines = grid_lines(grids)
    path.write_text("".join(lines), encoding="utf-8")
    one.write_text(lines[0], encoding="utf-8")
    proofs = folder / "proofs.drup"
    start_up, start_up_cpu = proof_rate_run(one, folder, None)
    start_up_with, start_up_with_cpu = proof_rate_run(one, folder, proofs)
    runs: dict[bool, list[tuple[float, float]]] = {False: [], True: []}
    for _ in range(PROOF_RUNS):  # alternated, so that a change of load hits both
        for proving in (False, True):
            runs[proving].append(proof_rate_run(path, folder, proofs if proving else None))
    without, with_proofs = (median([wall for wall, _ in runs[p]]) for p in (False, True))
    cpu_without, cpu_with = (median([cpu for _, cpu in runs[p]]) for p in (False, True))
    sections = proofs.read_text(encoding="utf-8").split(PROOF_SECTION)[1:]
    by_grid = dict(section.split("\n", 1) for section in sections)  # "N": its proof
    sizes = [len(section) for section in sections]
    key = f"6.{source}"
    record.figure(f"{key}.wall_without", without, "s")
    record.figure(f"{key}.wall_with", with_proofs, "s")
    record.figure(f"{key}.cpu_without", cpu_without, "s")
    record.figure(f"{key}.cpu_with", cpu_with, "s")
    record.figure(f"{key}.proof_bytes.median", median(sizes), "bytes")
    print(f"   {source}, {len(grids)} grids: median wall of {PROOF_RUNS} runs {without:.2f} s "
          f"without --proof, {with_proofs:.2f} s with (start-up {start_up:.2f} s / "
          f"{start_up_with:.2f} s); "
          f"{len(sections)} proofs in one file, {sum(sizes) / 1e6:.1f} MB, median "
          f"{median(sizes):.0f} "
          f"bytes, largest {max(sizes)}")  # fmt: skip
    # The target is on processor time: on a machine shared with other jobs the wall time
    # measures the queue for the processor too.  The wall ratio is printed beside it.
    ratio = (cpu_with - start_up_with_cpu) / max(cpu_without - start_up_cpu, 1e-9)
    wall_ratio = (with_proofs - start_up_with) / max(without - start_up, 1e-9)
    print(f"   processor time (user + system) {cpu_without:.2f} s without, {cpu_with:.2f} s "
          f"with; walls less start-up, with / without: {wall_ratio:.2f}x")  # fmt: skip
    print(record.target("proof-cost", ratio, source))
    times, lemmas, verified = [], [], 0
    for index, grid in enumerate(grids[:check]):
        if str(index) not in by_grid:  # not settled by the rating: no proof
            continue
        cnf = parse_cnf(encode_dimacs(grid, GEOMETRY))
        steps = parse_proof(by_grid[str(index)], "proof", cnf.num_vars)
        seconds, verdict = timed(lambda cnf=cnf, steps=steps: check_proof(cnf, steps, "proof"))
        times.append(seconds)
        lemmas.append(verdict.lemmas)
        verified += verdict.claim in ("one model", "unsatisfiable")
    record.figure(f"{key}.check.median", median(times) * 1e3, "ms")
    record.figure(f"{key}.verified", verified, "proofs")
    print(f"   checking the first {len(times)}: {verified} verified, median "
          f"{ms(median(times))} a proof ({median(lemmas):.0f} lemmas), "
          f"total {sum(times):.2f} s")  # fmt: skip
    proofs.unlink()
    refutation_figures(source, path, folder, check, record, start_up_cpu, cpu_without)


def file_system_floor(folder: Path, sizes: list[int]) -> float:
    """The processor time (user + system, this process) of creating files of `sizes` in
    a fresh `folder` and writing their bytes in one call each: what any writer of the
    same proof folder pays the file system, whatever its own speed."""
    import os
    import resource
    import shutil

    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir()
    data = bytes(max(sizes, default=0))
    before = resource.getrusage(resource.RUSAGE_SELF)
    for index, size in enumerate(sizes):
        fd = os.open(folder / str(index), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        try:
            os.write(fd, memoryview(data)[:size])
        finally:
            os.close(fd)
    after = resource.getrusage(resource.RUSAGE_SELF)
    shutil.rmtree(folder)
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def refutation_figures(source: str, path: Path, folder: Path, check: int, record: Record,
                       start_up_cpu: float, cpu_without: float) -> None:  # fmt: skip
    """`--proof FOLDER` (each proof beside its CNF: one run, it writes a CNF a grid), then
    the DRUP and the LRAT check of the same refutations of the first `check` grids."""
    import shutil

    from encoder.dimacs import parse_cnf
    from solvers.proofs.check import check_proof, parse_proof
    from solvers.proofs.check_lrat import check_lrat
    from solvers.proofs.lrat import lrat_of_drup

    pairs = folder / "pairs"
    shutil.rmtree(pairs, ignore_errors=True)
    pairs.mkdir()
    _, cpu_dir = proof_rate_run(path, folder, pairs)
    sizes = [p.stat().st_size for p in pairs.iterdir()]
    ratio = (cpu_dir - start_up_cpu) / max(cpu_without - start_up_cpu, 1e-9)
    print(f"   --proof FOLDER: {cpu_dir:.2f} s of processor time, {sum(sizes) / 1e9:.2f} GB "
          f"written in {len(sizes)} files (a CNF and a proof a grid)")  # fmt: skip
    floor = file_system_floor(folder / "floor", sizes)
    print(f"   the file system's own part: {floor:.2f} s of processor time to create and fill "
          f"as many files of the same sizes (no Python per byte); rating without proofs: "
          f"{cpu_without - start_up_cpu:.2f} s less start-up")  # fmt: skip
    print(record.target("proof-dir-cost", ratio, source))
    drup_times, lrat_times = [], []
    lrat = folder / "one.lrat"
    for index in range(check):
        cnf_path, proof_path = pairs / f"{index}.cnf", pairs / f"{index}.drup"
        if not proof_path.exists():
            continue
        cnf = parse_cnf(cnf_path.read_text(encoding="utf-8"))
        text = proof_path.read_text(encoding="utf-8")
        steps = parse_proof(text, "proof", cnf.num_vars)
        seconds, verdict = timed(lambda cnf=cnf, steps=steps: check_proof(cnf, steps, "proof"))
        assert verdict.claim == "unsatisfiable"
        drup_times.append(seconds)
        lrat.write_text(lrat_of_drup(cnf, text), encoding="utf-8")
        seconds, verdict = timed(lambda cnf=cnf: check_lrat(cnf, str(lrat)))
        assert verdict.claim == "unsatisfiable"
        lrat_times.append(seconds)
    shutil.rmtree(pairs)
    drup, fast = median(drup_times), median(lrat_times)
    record.figure(f"6.{source}.lrat_check.median", fast * 1e3, "ms")
    print(f"   the first {len(drup_times)} refutations: DRUP check median {ms(drup)}, LRAT "
          f"check median {ms(fast)}")  # fmt: skip
    print(record.target("lrat-check-speed", drup / max(fast, 1e-9), source))
