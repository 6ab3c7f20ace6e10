/**
 * What an API key may do (docs/API.md, "Key scopes"): every key reads; a key of scope `check_in`
 * may also record door scans (`POST /v1/check_ins`). Stored in `api_keys.scope`, whose CHECK
 * constraint names the same values.
 */
export const API_KEY_SCOPES = ['read', 'check_in'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

/** The scope a key is created with unless another is asked for. */
export const DEFAULT_SCOPE: ApiKeyScope = 'read';

export function isApiKeyScope(value: unknown): value is ApiKeyScope {
  return (API_KEY_SCOPES as readonly unknown[]).includes(value);
}

/** Whether a key of scope `held` may do what needs `needed`: `check_in` includes reading. */
export function scopeAllows(held: ApiKeyScope, needed: ApiKeyScope): boolean {
  return held === needed || needed === 'read';
}
