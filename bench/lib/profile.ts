import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { openWriteChecker } from './cells';
import type { DoorRushTarget } from './door-rush';
import {
  revalidationHeaders,
  timedRun,
  warmUp,
  type LoadOptions,
} from './load';
import type { BenchOptions } from './options';
import type { ServerProcess } from './proc';
import { REQUEST_HEADERS, type Scenario } from './scenarios';
import { profiledSpec, type Launch, type Servers } from './servers';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

/** Which package or file a JavaScript frame belongs to. */
function place(url: string): string {
  const modules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (modules) return modules[1];
  if (url.startsWith('node:'))
    return url.slice(
      0,
      url.startsWith('node:internal/') ? url.indexOf('/', 14) >>> 0 : undefined,
    );
  // dist/, or a copy of it that a run was started from (dist-<name>/: a build kept apart from the
  // next `npm run build`, which empties dist/).
  const own = /\/dist(?:-[^/]+)?\/(.+)$/.exec(url);
  if (own) return own[1].replace(/\.js$/, '');
  return url;
}

/**
 * Which part of the stack a frame belongs to. Native frames (no URL: C++ bindings such as
 * better-sqlite3's Statement#all, V8 builtins) are named after the JavaScript that called them.
 */
function category(
  node: ProfileNode,
  parents: Map<number, ProfileNode>,
): string {
  const { url, functionName } = node.callFrame;
  if (url) return place(url);
  if (functionName.startsWith('(')) return functionName; // (garbage collector), (program), (idle)
  let caller = parents.get(node.id);
  while (
    caller &&
    !caller.callFrame.url &&
    !caller.callFrame.functionName.startsWith('(')
  ) {
    caller = parents.get(caller.id);
  }
  const from = caller?.callFrame.url
    ? `${place(caller.callFrame.url)} ${caller.callFrame.functionName || '(anonymous)'}`
    : '?';
  return `native ${functionName || '(anonymous)'} ← ${from}`;
}

/** A step of src/request-pipeline.ts (or Nest's), and the frames that are its own code. */
interface PipelineStep {
  name: string;
  owns: (place: string, functionName: string) => boolean;
}

const own =
  (...places: string[]) =>
  (place: string) =>
    places.some((p) => place === p || place.startsWith(`${p}/`));

/**
 * The pipeline's steps (src/request-pipeline.ts, NEST_STEPS) and the handler, each by the code that
 * is its own. compression's `end`, `write`, `on` and `flush` only wrap the response's: what runs
 * under them is the reply's. A sample belongs to the innermost step on its stack, so that a
 * library a step calls (lru-cache, negotiator, vary, setHeader) counts for that step. A frame is
 * the first listed step's that owns it: the revalidation interceptor's files come before the
 * handler's `src/sync`.
 */
const PIPELINE_STEPS: readonly PipelineStep[] = [
  { name: 'access log', owns: own('src/common/http/access-log') },
  { name: 'request id', owns: own('src/common/http/request-id') },
  { name: 'security headers (helmet)', owns: own('helmet') },
  {
    name: 'compression (its check)',
    owns: (place, fn) =>
      place === 'compression' && !['end', 'write', 'on', 'flush'].includes(fn),
  },
  { name: 'CORS', owns: own('cors') },
  { name: 'shutdown gate', owns: own('src/common/http/graceful-shutdown') },
  {
    name: 'API key (header, hash, cache)',
    owns: (place) =>
      place.startsWith('src/auth/') && place !== 'src/auth/api-key.guard',
  },
  { name: 'rate limit', owns: own('src/common/rate-limit') },
  { name: 'CORS preflight', owns: (_place, fn) => fn === 'answerPreflight' },
  { name: 'cache control', owns: own('src/common/http/cache-control') },
  { name: 'guard', owns: own('src/auth/api-key.guard') },
  {
    name: 'validation pipe',
    owns: own('src/common/validation', 'class-validator', 'class-transformer'),
  },
  {
    name: 'revalidation interceptor',
    owns: own(
      'src/revalidation/revalidation',
      'src/revalidation/data-version',
      'src/revalidation/code-fingerprint',
    ),
  },
  { name: 'links interceptor', owns: own('src/common/pagination') },
  { name: 'exception filter', owns: own('src/common/errors') },
  {
    name: 'conditional GET (ETag)',
    owns: own('src/common/http/etag', 'src/common/http/conditional-get'),
  },
  {
    name: 'reply (headers, res.end)',
    owns: own('src/common/http/json-buffer-express.adapter'),
  },
  {
    name: 'Idempotency-Key (claim, keep)',
    owns: own('src/common/idempotency'),
  },
  {
    name: 'handler (statements, JSON)',
    owns: own(
      'src/orders',
      'src/events',
      'src/issued-tickets',
      'src/check-ins',
      'src/event-series',
      'src/overview',
      'src/changes',
      'src/sync',
      'src/database',
      'src/common/resources',
      'better-sqlite3',
      'pg',
      'pg-protocol',
      'typeorm',
    ),
  },
];

/** Frameworks whose own frames are counted as theirs wherever they run (their calls nest). */
const FRAMEWORKS: readonly PipelineStep[] = [
  {
    name: 'Express and its router',
    owns: own(
      'express',
      'router',
      'path-to-regexp',
      'finalhandler',
      'parseurl',
    ),
  },
  {
    name: 'Nest and RxJS (routing context, guard, pipe, interceptor calls)',
    owns: (place) => place.startsWith('@nestjs/') || place === 'rxjs',
  },
];

/**
 * Which pipeline step a sample's self time is spent for. The frameworks' own frames count as
 * theirs (Express's next() and Nest's next.handle() run the later steps inside the earlier ones);
 * the socket write and the collector are their own rows; any other frame belongs to the innermost
 * step on its stack, and what runs under no step is Node's (the HTTP parser, the event loop).
 */
function stepOf(node: ProfileNode, parents: Map<number, ProfileNode>): string {
  const { url, functionName } = node.callFrame;
  if (functionName.startsWith('(')) return functionName;
  if (!url && /^write(v|Buffer|Utf8String|Latin1String)$/.test(functionName))
    return 'socket write';
  if (url) {
    const framework = FRAMEWORKS.find((f) => f.owns(place(url), functionName));
    if (framework) return framework.name;
  }
  for (
    let frame: ProfileNode | undefined = node;
    frame;
    frame = parents.get(frame.id)
  ) {
    const { url: at, functionName: fn } = frame.callFrame;
    const step = at && PIPELINE_STEPS.find((s) => s.owns(place(at), fn));
    if (step) return step.name;
  }
  return url.startsWith('node:_http')
    ? 'Node HTTP (parser, response object)'
    : 'Node and V8 (event loop, promises, other)';
}

export interface ProfileSummary {
  file: string;
  totalMs: number;
  byCategory: { name: string; ms: number; share: number }[];
  byFunction: { name: string; where: string; ms: number; share: number }[];
  /** Every row: the shares add up to the busy time. */
  byStep: { name: string; ms: number; share: number }[];
}

export type ScenarioProfile = ProfileSummary & { scenario: string };

/**
 * Self time by pipeline step, by package/file and by function, busiest first (idle excluded from
 * shares).
 */
export function summariseProfile(file: string, top = 20): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parents = new Map<number, ProfileNode>();
  for (const node of profile.nodes) {
    for (const child of node.children ?? []) parents.set(child, node);
  }
  const self = new Map<number, number>();
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i];
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  }
  const categories = new Map<string, number>();
  const steps = new Map<string, number>();
  const functions = new Map<
    string,
    { name: string; where: string; us: number }
  >();
  let busy = 0;
  for (const [id, us] of self) {
    const node = byId.get(id)!;
    if (node.callFrame.functionName === '(idle)') continue;
    busy += us;
    const cat = category(node, parents);
    categories.set(cat, (categories.get(cat) ?? 0) + us);
    const step = stepOf(node, parents);
    steps.set(step, (steps.get(step) ?? 0) + us);
    const where = node.callFrame.url
      ? `${cat}:${node.callFrame.lineNumber + 1}`
      : cat;
    const key = `${node.callFrame.functionName}@${where}`;
    const entry = functions.get(key) ?? {
      name: node.callFrame.functionName || '(anonymous)',
      where,
      us: 0,
    };
    entry.us += us;
    functions.set(key, entry);
  }
  const rows = (entries: Map<string, number>, count: number) =>
    [...entries]
      .sort((a, b) => b[1] - a[1])
      .slice(0, count)
      .map(([name, us]) => ({ name, ms: us / 1000, share: us / busy }));
  return {
    file,
    totalMs: busy / 1000,
    byCategory: rows(categories, top),
    byStep: rows(steps, steps.size),
    byFunction: [...functions.values()]
      .sort((a, b) => b.us - a.us)
      .slice(0, top)
      .map((f) => ({
        name: f.name,
        where: f.where,
        ms: f.us / 1000,
        share: f.us / busy,
      })),
  };
}

export function profileMarkdown(
  summary: ProfileSummary,
  scenario = 'walk',
): string {
  const pct = (v: number) => `${(v * 100).toFixed(1)}%`;
  return [
    `CPU profile of ours (1 process), ${scenario} @10: ${summary.totalMs.toFixed(0)} ms busy (${summary.file})`,
    '',
    '| self time by pipeline step | share |',
    '| --- | ---: |',
    ...summary.byStep.map((c) => `| ${c.name} | ${pct(c.share)} |`),
    '',
    '| self time by package / file | share |',
    '| --- | ---: |',
    ...summary.byCategory.map((c) => `| ${c.name} | ${pct(c.share)} |`),
    '',
    '| function | where | share |',
    '| --- | --- | ---: |',
    ...summary.byFunction.map(
      (f) => `| ${f.name} | ${f.where} | ${pct(f.share)} |`,
    ),
  ].join('\n');
}

/**
 * Runs `work` between the two SIGWINCHes that start and stop bench/profile-preload.ts's profiler,
 * then waits for the profile file.
 */
async function whileProfiling(
  server: ServerProcess,
  file: string,
  work: () => Promise<unknown>,
): Promise<void> {
  server.child.kill('SIGWINCH');
  await sleep(300);
  await work();
  server.child.kill('SIGWINCH');
  for (let i = 0; i < 100 && !existsSync(file); i++) await sleep(100);
  await sleep(500);
}

/**
 * CPU-profiles `ours` (one process, its own) through one timed run of a scenario at 10 connections.
 * A write scenario (the door rush, the ticket writes) runs as its cells do: warmed up, the database
 * cleared of the warm-up's writes, the profiled run, then cleared again (cells.ts, openWriteChecker).
 */
async function profileScenario(
  servers: Servers,
  launch: Launch,
  target: DoorRushTarget,
  scenario: Scenario,
  options: Pick<BenchOptions, 'duration' | 'warmup'>,
): Promise<ScenarioProfile> {
  const file = join(
    launch.dataDir,
    `ours-${scenario.name}-${Date.now()}.cpuprofile`,
  );
  const server = await servers.start(profiledSpec(launch, file));
  const door = scenario.scans
    ? await openWriteChecker(scenario, target, 10)
    : null;
  try {
    const load: LoadOptions = {
      server,
      paths: scenario.paths,
      okStatuses: scenario.okStatuses,
      connections: 10,
      duration: options.duration,
      headers: { ...(scenario.headers ?? REQUEST_HEADERS) },
      scans: scenario.scans,
      rate: scenario.rate,
    };
    if (scenario.revalidate) {
      load.pathHeaders = await revalidationHeaders(
        server.port,
        load.paths,
        load.headers,
      );
    }
    await door?.mark();
    await warmUp(load, Math.max(1, options.warmup));
    await door?.reset();
    await whileProfiling(server, file, () => timedRun(load));
    await door?.reset();
  } finally {
    await door?.close();
    await servers.stop(server);
  }
  return { ...summariseProfile(file), scenario: scenario.name };
}

/** `--profile`: the walk, or every scenario named with --scenarios. */
export async function profileOurs(
  servers: Servers,
  launch: Launch,
  target: DoorRushTarget,
  scenarios: readonly Scenario[],
  options: Pick<BenchOptions, 'duration' | 'warmup' | 'profile' | 'scenarios'>,
): Promise<ScenarioProfile[]> {
  if (!options.profile) return [];
  const profiles: ScenarioProfile[] = [];
  for (const scenario of scenarios) {
    if (!options.scenarios && scenario.name !== 'walk') continue;
    // The reads beside the rush: profile the rush (doorrush200) or the reads (walk) instead.
    if (scenario.beside) continue;
    console.log(`\nProfiling ours (1 process) on ${scenario.name} @10…`);
    profiles.push(
      await profileScenario(servers, launch, target, scenario, options),
    );
  }
  return profiles;
}
