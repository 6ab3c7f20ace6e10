import { summarise, type CellResult } from './report';
import { cpuRatioOn, smokeVerdict } from './smoke';
import { writeFaults } from './ticket-writes';

/** A cell of one timed run at this req/s and this CPU a request. */
function cell(
  scenario: string,
  server: CellResult['server'],
  rps: number,
  cpuUs: number,
): CellResult {
  return summarise(scenario, server, 10, [
    {
      requests: rps * 5,
      rps,
      mean: 10,
      p50: 5,
      p99: 50,
      mbps: 1,
      cpuUsPerRequest: cpuUs,
      dbCpuUsPerRequest: null,
      errors: 0,
      statuses: { '200': rps * 5 },
      durationS: 5,
    },
  ]);
}

describe('the smoke gate on ours ÷ nest', () => {
  afterEach(() => {
    process.exitCode = undefined;
  });

  it('compares requests a CPU-second (nest CPU ÷ ours), not req/s', () => {
    const cells = [
      cell('retrieve', 'ours', 600, 500),
      cell('retrieve', 'nest', 800, 200),
    ];
    expect(cpuRatioOn(cells, 'retrieve')).toBeCloseTo(0.4);
  });

  it('fails below the threshold and passes above it', () => {
    const walk = [
      cell('walk', 'ours', 100, 3000),
      cell('walk', 'typical', 10, 30000),
    ];
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    jest.spyOn(console, 'log').mockImplementation(() => undefined);
    smokeVerdict(
      [
        ...walk,
        cell('retrieve', 'ours', 900, 800),
        cell('retrieve', 'nest', 1000, 200),
      ],
      7,
      0.3,
    );
    expect(process.exitCode).toBe(1);
    process.exitCode = undefined;
    smokeVerdict(
      [
        ...walk,
        cell('retrieve', 'ours', 600, 500),
        cell('retrieve', 'nest', 800, 200),
      ],
      7,
      0.3,
    );
    expect(process.exitCode).toBeUndefined();
  });

  it('fails when the nest cell is missing', () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    smokeVerdict(
      [
        cell('walk', 'ours', 100, 3000),
        cell('walk', 'typical', 10, 30000),
        cell('retrieve', 'ours', 600, 500),
      ],
      7,
      0.3,
    );
    expect(process.exitCode).toBe(1);
  });
});

describe('ticket-write faults', () => {
  const clean = { written: 100, overCapacity: 0, counterDrift: 0 };

  it('allows the rows of requests in flight at the end of a run, no more', () => {
    expect(writeFaults(clean, 100, 10)).toBe(0);
    expect(writeFaults({ ...clean, written: 110 }, 100, 10)).toBe(0);
    expect(writeFaults({ ...clean, written: 112 }, 100, 10)).toBe(2);
  });

  it('counts every success the database does not hold, and every type wrong', () => {
    expect(writeFaults({ ...clean, written: 97 }, 100, 10)).toBe(3);
    expect(
      writeFaults({ written: 100, overCapacity: 1, counterDrift: 2 }, 100, 10),
    ).toBe(3);
  });
});
