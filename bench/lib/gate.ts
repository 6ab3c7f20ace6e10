import { isDeepStrictEqual } from 'node:util';
import { httpGet, type ServerProcess } from './proc';
import { seededRandom, shuffle } from './random';
import {
  BARE_SCENARIOS,
  OURS_ONLY,
  REQUEST_HEADERS,
  type Scenario,
} from './scenarios';
import type { Servers } from './servers';

/** The first place two JSON values differ, as a path, or null when they are equal. */
export function firstDifference(
  a: unknown,
  b: unknown,
  path = '$',
): string | null {
  if (isDeepStrictEqual(a, b)) return null;
  if (
    typeof a !== 'object' ||
    typeof b !== 'object' ||
    a === null ||
    b === null
  ) {
    return `${path}: ${JSON.stringify(a)?.slice(0, 200)} != ${JSON.stringify(b)?.slice(0, 200)}`;
  }
  if (Array.isArray(a) !== Array.isArray(b)) return `${path}: array vs object`;
  if (Array.isArray(a) && Array.isArray(b) && a.length !== b.length) {
    return `${path}: ${a.length} items != ${b.length} items`;
  }
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  const keys = new Set([...Object.keys(ra), ...Object.keys(rb)]);
  for (const key of keys) {
    if (!(key in ra)) return `${path}.${key}: missing on the left`;
    if (!(key in rb)) return `${path}.${key}: missing on the right`;
    const diff = firstDifference(ra[key], rb[key], `${path}.${key}`);
    if (diff) return diff;
  }
  return `${path}: differ`;
}

/** How many requests of each scenario the gate checks (cheap ones more, deep offsets fewer). */
const SAMPLES: Record<string, number> = {
  first: 1,
  walk: 12,
  deep50: 3,
  deep99: 3,
  range: 6,
  event: 6,
  retrieve: 40,
  invalid: 6,
  events: 3,
  eventget: 30,
  tickets: 12,
  ticketdeep: 3,
  ticketget: 40,
  series: 1,
  seriesevents: 10,
  seriesfilter: 10,
  checkins: 12,
  overview: 1,
  syncwalk: 12,
  feedpoll: 3,
  firstpoll: 1,
  getpoll: 5,
  eventpoll: 3,
  eventgetpoll: 5,
};

function sample(scenario: Scenario, seed: number): string[] {
  const wanted = SAMPLES[scenario.name] ?? 5;
  const picked = new Set(
    shuffle([...scenario.paths], seededRandom(seed)).slice(0, wanted),
  );
  // Every path with a special expected status (the 404s of retrieve) is checked too.
  for (const path of scenario.expected.keys()) {
    if (picked.size >= wanted + 20) break;
    picked.add(path);
  }
  return [...picked];
}

export interface GateReport {
  requests: number;
  scenarios: Record<string, { checked: number; bodyBytes: number }>;
}

/**
 * Before anything is timed: every server answers the same requests with the same status and a
 * deep-equal JSON body (links included), and the status is the one the scenario expects. A fast
 * wrong answer cannot win.
 */
export async function correctnessGate(
  reference: ServerProcess,
  others: ServerProcess[],
  scenarios: Scenario[],
  headers: Record<string, string>,
  seed: number,
): Promise<GateReport> {
  const report: GateReport = { requests: 0, scenarios: {} };
  // The door rush writes: the e2e suites check its answers; its runs check the database.
  for (const scenario of scenarios.filter((s) => !s.scans)) {
    const paths = sample(scenario, seed);
    let bodyBytes = 0;
    const peers = others.filter((server) =>
      server.name === 'typical'
        ? !OURS_ONLY.has(scenario.name)
        : (server.name !== 'bare' && server.name !== 'nest') ||
          BARE_SCENARIOS.has(scenario.name),
    );
    for (const path of paths) {
      const expected = scenario.expected.get(path) ?? 200;
      const want = await httpGet(reference.port, path, headers);
      report.requests++;
      if (want.status !== expected) {
        throw new Error(
          `gate: ${reference.name} answered ${want.status} to GET ${path}, expected ${expected}: ${want.body.toString().slice(0, 300)}`,
        );
      }
      const wantJson: unknown = JSON.parse(want.body.toString());
      bodyBytes += want.body.length;
      for (const server of peers) {
        const got = await httpGet(server.port, path, headers);
        report.requests++;
        if (got.status !== want.status) {
          throw new Error(
            `gate: GET ${path}: ${server.name} answered ${got.status}, ${reference.name} ${want.status}: ${got.body.toString().slice(0, 300)}`,
          );
        }
        let gotJson: unknown;
        try {
          gotJson = JSON.parse(got.body.toString());
        } catch {
          throw new Error(
            `gate: GET ${path}: ${server.name} sent a body that is not JSON`,
          );
        }
        const diff = firstDifference(wantJson, gotJson);
        if (diff) {
          throw new Error(
            `gate: GET ${path}: ${server.name}'s body differs from ${reference.name}'s at ${diff}`,
          );
        }
      }
    }
    report.scenarios[scenario.name] = {
      checked: paths.length,
      bodyBytes: Math.round(bodyBytes / paths.length),
    };
  }
  return report;
}

/**
 * The gate over the run's servers: ours against ours with metrics on, ours2, ours4, bare, nest
 * and typical, whichever run.
 */
export async function runGate(
  servers: Servers,
  scenarios: Scenario[],
  seed: number,
): Promise<GateReport> {
  const others = [
    servers.get('metrics'),
    servers.get('ours2'),
    servers.get('ours4'),
    servers.get('bare'),
    servers.get('nest'),
    servers.get('typical'),
  ].filter((s): s is ServerProcess => !!s);
  console.log(
    `\nCorrectness gate: ours vs ${others.map((s) => s.name).join(', ') || 'nothing'}…`,
  );
  const gate = await correctnessGate(
    servers.get('ours')!,
    others,
    scenarios,
    REQUEST_HEADERS,
    seed,
  );
  const sizes = Object.entries(gate.scenarios).map(
    ([name, s]) =>
      `${name}: ${s.checked} × ~${Math.round(s.bodyBytes / 1024)} KB`,
  );
  console.log(
    `  ${gate.requests} requests, every body deep-equal (${sizes.join(', ')})`,
  );
  return gate;
}
