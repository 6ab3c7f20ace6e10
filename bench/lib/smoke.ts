import { findCell, ourErrors, type CellResult } from './report';

/**
 * `--smoke`: fails the run (exit code 1) when ours/typical req/s on the walk at 10 connections is
 * below `minSpeedup`, or when ours has errors; says whether issue #4's 10× was met either way.
 */
export function smokeVerdict(cells: CellResult[], minSpeedup: number): void {
  const speedup =
    (findCell(cells, 'walk', 'ours')?.median.rps ?? 0) /
    (findCell(cells, 'walk', 'typical')?.median.rps ?? Infinity);
  const errors = ourErrors(cells);
  const failures: string[] = [];
  if (!(speedup >= minSpeedup)) {
    failures.push(
      `ours/typical on the walk is ${speedup.toFixed(1)}×, below ${minSpeedup}×`,
    );
  }
  if (errors > 0) failures.push(`${errors} errors`);
  if (failures.length > 0) {
    console.error(`SMOKE FAILED: ${failures.join('; ')}`);
    process.exitCode = 1;
  } else {
    console.log(
      `Smoke passed: ours/typical ${speedup.toFixed(1)}× on the walk (gate ${minSpeedup}×; ` +
        `issue #4's 10× ${speedup >= 10 ? 'met' : 'not met'} in this run), no errors`,
    );
  }
}
