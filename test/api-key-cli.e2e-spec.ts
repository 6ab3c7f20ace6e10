import request from 'supertest';
import {
  UsageError,
  parseApiKeyCommand,
  runApiKeyCommand,
} from '../src/auth/api-key.command';
import { TestApp, basicAuth, createTestApp } from './utils/create-test-app';
import { Factory } from './utils/factories';

// The API key CLI (docs/API.md, Box offices) against the database a running service uses.
describe('npm run apikey', () => {
  let t: TestApp;
  let boxOfficeId: number;

  beforeAll(async () => {
    // No auth cache: a revoked key must be refused on the very next request.
    t = await createTestApp({ AUTH_CACHE_TTL_MS: '0' });
    boxOfficeId = (await new Factory(t.dataSource).boxOffice()).id;
  });
  afterAll(() => t.close());

  async function run(...argv: string[]): Promise<string[]> {
    const lines: string[] = [];
    await runApiKeyCommand(parseApiKeyCommand(argv)!, t.dataSource, (line) =>
      lines.push(line),
    );
    return lines;
  }

  it('creates a key that works, lists it without the secret, and revokes it', async () => {
    const created = await run(
      'create',
      '--box-office',
      String(boxOfficeId),
      '--name',
      'Scanner',
    );
    expect(created[0]).toMatch(
      /^Created key ak_(\d+) for box office \d+\. It is shown only once:$/,
    );
    const secret = created[1];
    expect(secret).toMatch(/^sk_[A-Za-z0-9]{40}$/);
    const keyId = /ak_(\d+)/.exec(created[0])![1];

    const ok = await request(t.server)
      .get('/v1/orders')
      .set('Authorization', basicAuth(secret));
    expect(ok.status).toBe(200);

    const listed = await run('list', '--box-office', String(boxOfficeId));
    expect(listed).toEqual([
      expect.stringMatching(
        new RegExp(
          `^ak_${keyId}\\t${secret.slice(0, 7)}…\\tactive\\tcreated \\S+\\tscope read\\tScanner$`,
        ),
      ),
    ]);
    expect(listed.join('\n')).not.toContain(secret);

    const stored = await t.dataSource.query('SELECT key_hash FROM api_keys');
    expect(JSON.stringify(stored)).not.toContain(secret);

    expect(await run('revoke', `ak_${keyId}`)).toEqual([
      `Revoked key ak_${keyId}`,
    ]);
    const refused = await request(t.server)
      .get('/v1/orders')
      .set('Authorization', basicAuth(secret));
    expect(refused.status).toBe(401);
    expect(await run('list', '--box-office', String(boxOfficeId))).toEqual([
      expect.stringMatching(
        new RegExp(
          `^ak_${keyId}\\t\\S+…\\trevoked \\S+\\tcreated \\S+\\tscope read\\tScanner$`,
        ),
      ),
    ]);
  });

  it('creates a key of scope check_in that may record scans; a read key may not', async () => {
    const f = new Factory(t.dataSource);
    const event = await f.event(boxOfficeId);
    const [order] = await f.orders(boxOfficeId, event.id, [{}]);
    const scan = (key: string) =>
      request(t.server)
        .post('/v1/check_ins')
        .set('Authorization', basicAuth(key))
        .send({ issued_ticket_id: `it_${order.issuedTickets![0].id}` });
    const door = await run(
      'create',
      '--box-office',
      String(boxOfficeId),
      '--scope',
      'check_in',
    );
    expect((await scan(door[1])).status).toBe(201);
    const reader = await run('create', '--box-office', String(boxOfficeId));
    expect((await scan(reader[1])).status).toBe(403);
    const listed = await run('list', '--box-office', String(boxOfficeId));
    expect(listed.filter((line) => line.includes('\tscope check_in'))).toEqual([
      expect.stringContaining(door[1].slice(0, 7)),
    ]);
    expect(() =>
      parseApiKeyCommand(['create', '--box-office', '1', '--scope', 'admin']),
    ).toThrow('--scope must be one of read, check_in, write, got "admin"');
  });

  it('creates a key of scope write, which also records scans (scopes nest)', async () => {
    const f = new Factory(t.dataSource);
    const event = await f.event(boxOfficeId);
    const [order] = await f.orders(boxOfficeId, event.id, [{}]);
    const writer = await run(
      'create',
      '--box-office',
      String(boxOfficeId),
      '--scope',
      'write',
    );
    const scan = await request(t.server)
      .post('/v1/check_ins')
      .set('Authorization', basicAuth(writer[1]))
      .send({ issued_ticket_id: `it_${order.issuedTickets![0].id}` });
    expect(scan.status).toBe(201);
    const listed = await run('list', '--box-office', String(boxOfficeId));
    expect(listed.filter((line) => line.includes('\tscope write'))).toEqual([
      expect.stringContaining(writer[1].slice(0, 7)),
    ]);
  });

  it('creates different random keys each time', async () => {
    const first = (await run('create', '--box-office', String(boxOfficeId)))[1];
    const second = (
      await run('create', '--box-office', String(boxOfficeId))
    )[1];
    expect(first).not.toBe(second);
  });

  it('refuses unknown box offices, unknown keys and malformed commands', async () => {
    await expect(run('create', '--box-office', '999')).rejects.toThrow(
      'There is no box office 999',
    );
    await expect(run('revoke', '999')).rejects.toThrow(UsageError);
    expect(() => parseApiKeyCommand(['create'])).toThrow(
      '--box-office must be a positive number',
    );
    expect(() => parseApiKeyCommand(['delete', '1'])).toThrow(UsageError);
    expect(() => parseApiKeyCommand(['list', '--box-office', '1x'])).toThrow(
      UsageError,
    );
  });
});
