import { once } from 'node:events';
import { basicAuth } from '../utils/create-test-app';
import { TestDatabase } from '../utils/test-database';
import { DEMO_KEY, freshDatabase, seedDemo, sleep } from './databases';
import { ServerProcess, SpawnOptions, startServer } from './server-process';
import { sample } from './traffic';

const GRACE_MS = 2_000;
const CLOSE_MS = 1_000;

/**
 * The server's stdout is a pipe to a log collector (here, this test): what the server does when
 * the collector goes away (the pipe breaks) or stops reading (the pipe fills). Serving goes on,
 * and SIGTERM ends the process within SHUTDOWN_GRACE_MS + SHUTDOWN_CLOSE_MS whatever became of
 * its log lines (docs/DESIGN.md, Shutdown).
 */
describe('SIGTERM whatever became of stdout', () => {
  let database: TestDatabase;
  let server: ServerProcess;

  beforeAll(async () => {
    database = await freshDatabase('sqlite');
    await seedDemo(database.url, 30);
  });

  afterEach(async () => {
    // A server that did not exit by itself is killed: it is what the test reports.
    if (server && server.child.exitCode === null) server.child.kill('SIGKILL');
    await server?.exited();
  });
  afterAll(() => database?.drop());

  const start = (options: SpawnOptions = {}) =>
    startServer(
      {
        DATABASE_URL: database.url,
        // A line per request, and the change-feed cleanup running every second.
        LOG_LEVEL: 'info',
        CHANGES_RETENTION_S: '2',
        SHUTDOWN_GRACE_MS: String(GRACE_MS),
        SHUTDOWN_CLOSE_MS: String(CLOSE_MS),
      },
      options,
    );

  const ordersPage = () =>
    sample(`${server.url}/v1/orders?limit=5`, {
      Authorization: basicAuth(DEMO_KEY),
    });

  /** Sends SIGTERM; resolves with how long the process took to exit, or fails past the bound. */
  async function stopWithin(bound: number, afterSignal: () => void = () => {}) {
    const signalled = Date.now();
    server.child.kill('SIGTERM');
    afterSignal();
    const exit = await Promise.race([
      server.exited(),
      sleep(bound + 2_000).then(() => null),
    ]);
    const ms = Date.now() - signalled;
    expect({ exit, withinBound: ms <= bound }).toEqual({
      exit: { code: 0, signal: null },
      withinBound: true,
    });
  }

  it('exits within the bound when the reader of stdout goes away just after the signal', async () => {
    server = await start();
    expect((await ordersPage()).status).toBe(200);
    await stopWithin(GRACE_MS + CLOSE_MS, () => server.child.stdout!.destroy());
  });

  it('goes on serving once the reader of stdout is gone, and exits within the bound', async () => {
    server = await start();
    server.child.stdout!.destroy();
    await sleep(100);
    for (let i = 0; i < 50; i++) expect((await ordersPage()).status).toBe(200);
    await stopWithin(GRACE_MS + CLOSE_MS);
  });

  it('goes on serving while nobody reads stdout (the pipe is full), and exits within the bound', async () => {
    server = await start({ stdout: 'unread' });
    const requests = 3_000;
    // Four keep-alive clients, as fast as the server answers.
    const outcomes: string[] = [];
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (outcomes.length < requests) {
          const s = await sample(`${server.url}/v1/ping`, {});
          outcomes.push(s.error ?? String(s.status));
        }
      }),
    );
    // Never held up by its log output: a request waiting on the pipe would wait for good, and
    // `sample` records it as a time-out after 5 s instead of a status.
    expect(outcomes.filter((outcome) => outcome !== '200')).toEqual([]);
    await stopWithin(GRACE_MS + CLOSE_MS);

    // The pipe was full: what it holds now is less than a line per request.
    const stdout = server.child.stdout!;
    let text = '';
    stdout.setEncoding('utf8');
    stdout.on('data', (chunk: string) => (text += chunk));
    await once(stdout, 'end');
    const lines = text.split('\n').filter(Boolean);
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.length).toBeLessThan(requests);
  });
});
