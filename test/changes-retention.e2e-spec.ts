import { setTimeout as sleep } from 'node:timers/promises';
import { changeHead, oldestKeptChange } from '../src/changes/change-feed';
import { TestApp, createTestApp } from './utils/create-test-app';
import { Factory } from './utils/factories';

// docs/API.md, "Retention": the running service removes expired entries by itself.
describe('change-feed retention in the running service', () => {
  let t: TestApp;
  afterAll(() => t?.close());

  it('removes entries older than CHANGES_RETENTION_S, keeping the head', async () => {
    t = await createTestApp({ CHANGES_RETENTION_S: '1' });
    const f = new Factory(t.dataSource);
    const office = await f.boxOffice();
    // Two events, each made with a series: four entries.
    await f.event(office.id);
    await f.event(office.id);
    // Read as the feed reads: its head first (on PostgreSQL that numbers the entries waiting).
    expect(await changeHead(t.dataSource, office.id)).toBe(4);
    expect(await oldestKeptChange(t.dataSource, office.id)).toBe(1);
    let oldest: number | null = 1;
    for (let i = 0; i < 50 && oldest !== null; i++) {
      await sleep(200);
      oldest = await oldestKeptChange(t.dataSource, office.id);
    }
    expect(oldest).toBeNull();
    expect(await changeHead(t.dataSource, office.id)).toBe(4);
  });
});
