import { setTimeout as sleep } from 'node:timers/promises';
import type { Get } from './api';

/**
 * Waits until the sync horizon a list reports (X-Sync-Watermark) has reached `stamp`: from then
 * on, a change stamped `stamp` is served in sync mode too (docs/API.md, "Incremental sync").
 */
export async function waitForWatermark(
  get: Get,
  stamp: number,
  path = '/v1/orders?limit=1',
): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const res = await get(path);
    if (Number(res.headers['x-sync-watermark']) >= stamp) return;
    await sleep(100);
  }
  throw new Error(`the sync horizon never reached ${stamp}`);
}
