import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
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
  const own = /\/dist\/(.+)$/.exec(url);
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

export interface ProfileSummary {
  file: string;
  totalMs: number;
  byCategory: { name: string; ms: number; share: number }[];
  byFunction: { name: string; where: string; ms: number; share: number }[];
}

export type ScenarioProfile = ProfileSummary & { scenario: string };

/** Self time by package/file and by function, busiest first (idle excluded from shares). */
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
  return {
    file,
    totalMs: busy / 1000,
    byCategory: [...categories]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, us]) => ({ name, ms: us / 1000, share: us / busy })),
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

/** CPU-profiles `ours` (one process, its own) through one timed run of a scenario at 10 connections. */
async function profileScenario(
  servers: Servers,
  launch: Launch,
  scenario: Scenario,
  options: Pick<BenchOptions, 'duration' | 'warmup'>,
): Promise<ScenarioProfile> {
  const file = join(
    launch.dataDir,
    `ours-${scenario.name}-${Date.now()}.cpuprofile`,
  );
  const server = await servers.start(profiledSpec(launch, file));
  try {
    const load: LoadOptions = {
      server,
      paths: scenario.paths,
      okStatuses: scenario.okStatuses,
      connections: 10,
      duration: options.duration,
      headers: REQUEST_HEADERS,
    };
    if (scenario.revalidate) {
      load.pathHeaders = await revalidationHeaders(
        server.port,
        load.paths,
        load.headers,
      );
    }
    await warmUp(load, Math.max(1, options.warmup));
    await whileProfiling(server, file, () => timedRun(load));
  } finally {
    await servers.stop(server);
  }
  return { ...summariseProfile(file), scenario: scenario.name };
}

/** `--profile`: the walk, or every scenario named with --scenarios. */
export async function profileOurs(
  servers: Servers,
  launch: Launch,
  scenarios: readonly Scenario[],
  options: Pick<BenchOptions, 'duration' | 'warmup' | 'profile' | 'scenarios'>,
): Promise<ScenarioProfile[]> {
  if (!options.profile) return [];
  const profiles: ScenarioProfile[] = [];
  for (const scenario of scenarios) {
    if (!options.scenarios && scenario.name !== 'walk') continue;
    console.log(`\nProfiling ours (1 process) on ${scenario.name} @10…`);
    profiles.push(await profileScenario(servers, launch, scenario, options));
  }
  return profiles;
}
