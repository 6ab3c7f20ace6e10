import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { LRUCache } from 'lru-cache';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { SqlParams, dialectFor } from '../database/sql-dialect';
import { apiKeyFromAuthorization, hashApiKey } from './api-key-format';
import {
  type ApiKeyScope,
  DEFAULT_SCOPE,
  isApiKeyScope,
} from './api-key-scopes';

/**
 * Who is calling: the key's box office (the tenant every query is scoped to), the key, and what
 * the key may do.
 */
export interface Caller {
  boxOfficeId: number;
  apiKeyId: number;
  scope: ApiKeyScope;
}

/**
 * Verifies API keys. A verified key is remembered for AUTH_CACHE_TTL_MS in a bounded LRU (so a
 * busy client costs one lookup a second, not one a request); unknown keys are never cached, and
 * a revoked key stops working within that TTL.
 */
@Injectable()
export class AuthService {
  private readonly cache: LRUCache<string, Caller> | null;
  /**
   * Hashes of keys this instance has found valid, with no expiry but a bound: what lets a client
   * keep working from an address refused for failed authentications (verifyIfKnown).
   */
  private readonly known = new LRUCache<string, true>({ max: 10_000 });
  private readonly lookupSql: string;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    config: AppConfig,
  ) {
    const ttl = config.authCacheTtlMs;
    this.cache = ttl > 0 ? new LRUCache({ max: 10_000, ttl }) : null;
    const params = new SqlParams(dialectFor(dataSource.options.type));
    this.lookupSql = `SELECT k.id AS id, k.box_office_id AS box_office_id, k.scope AS scope FROM api_keys k WHERE k.key_hash = ${params.add(
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
    return this.lookUp(hash);
  }

  /**
   * As verify, but a key this instance has never found valid is refused without a lookup: for an
   * address that has failed authentication too often, whose guesses must cost nothing, while a
   * client that was working from it keeps working (revocation still applies: known keys are
   * looked up as usual once out of the cache).
   */
  async verifyIfKnown(authorization: string): Promise<Caller | null> {
    const hash = hashOfKeyIn(authorization);
    if (hash === null) return null;
    const cached = this.cache?.get(hash);
    if (cached) return cached;
    return this.known.has(hash) ? this.lookUp(hash) : null;
  }

  private async lookUp(hash: string): Promise<Caller | null> {
    const rows = await this.dataSource.query<
      { id: number; box_office_id: number; scope: unknown }[]
    >(this.lookupSql, [hash]);
    if (rows.length === 0) {
      this.known.delete(hash);
      return null;
    }
    const caller = {
      boxOfficeId: Number(rows[0].box_office_id),
      apiKeyId: Number(rows[0].id),
      // The column's CHECK admits only these; anything else would read, never write.
      scope: isApiKeyScope(rows[0].scope) ? rows[0].scope : DEFAULT_SCOPE,
    };
    this.cache?.set(hash, caller);
    this.known.set(hash, true);
    return caller;
  }
}

function hashOfKeyIn(authorization: string): string | null {
  const key = apiKeyFromAuthorization(authorization);
  return key === null ? null : hashApiKey(key);
}
