import { TestApp, createTestApp } from './utils/create-test-app';

// The schema comes only from migrations (synchronize is off everywhere). If an entity and the
// migrations disagree, TypeORM's schema builder would have SQL to run: that is drift, and fails.
describe('schema', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('has no pending migrations after start', async () => {
    expect(await t.dataSource.showMigrations()).toBe(false);
  });

  it('matches the entities exactly (no drift between entities and migrations)', async () => {
    const pending = await t.dataSource.driver.createSchemaBuilder().log();
    expect(pending.upQueries.map((query) => query.query)).toEqual([]);
  });
});
