import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { LRUCache } from 'lru-cache';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { SqlParams, dialectFor } from '../database/sql-dialect';
import { apiKeyFromAuthorization, hashApiKey } from './api-key-format';

/** Who is calling: the key's box office (the tenant every query is scoped to) and the key. */
export interface Caller {
  boxOfficeId: number;
  apiKeyId: number;
}

/**
 * Verifies API keys. A verified key is remembered for AUTH_CACHE_TTL_MS in a bounded LRU (so a
 * busy client costs one lookup a second, not one a request); unknown keys are never cached, and
 * a revoked key stops working within that TTL.
 */
@Injectable()
export class AuthService {
  private readonly cache: LRUCache<string, Caller> | null;
  private readonly lookupSql: string;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    config: AppConfig,
  ) {
    const ttl = config.authCacheTtlMs;
    this.cache = ttl > 0 ? new LRUCache({ max: 10_000, ttl }) : null;
    const params = new SqlParams(dialectFor(dataSource.options.type));
    this.lookupSql = `SELECT k.id AS id, k.box_office_id AS box_office_id FROM api_keys k WHERE k.key_hash = ${params.add(
      '',
    )} AND k.revoked_at IS NULL`;
  }

  /**
   * The caller an Authorization header proves, or null when it proves nothing. Costs at most one
   * lookup by the key's hash (a unique index): none for a malformed header or a cached key.
   */
  async verify(authorization: string): Promise<Caller | null> {
    const hash = hashOfKeyIn(authorization);
    if (hash === null) return null;
    const cached = this.cache?.get(hash);
    if (cached) return cached;
    const rows = await this.dataSource.query<
      { id: number; box_office_id: number }[]
    >(this.lookupSql, [hash]);
    if (rows.length === 0) return null;
    const caller = {
      boxOfficeId: Number(rows[0].box_office_id),
      apiKeyId: Number(rows[0].id),
    };
    this.cache?.set(hash, caller);
    return caller;
  }

  /** The caller when the header's key was verified within AUTH_CACHE_TTL_MS; no lookup. */
  verifyFromCache(authorization: string): Caller | null {
    const hash = hashOfKeyIn(authorization);
    return (hash !== null && this.cache?.get(hash)) || null;
  }
}

function hashOfKeyIn(authorization: string): string | null {
  const key = apiKeyFromAuthorization(authorization);
  return key === null ? null : hashApiKey(key);
}
