/**
 * What an API key may do (docs/API.md, "Key scopes"). Scopes nest, each including the ones before
 * it: every key reads; a key of scope `check_in` may also record door scans (`POST
 * /v1/check_ins`); a key of scope `write` may also make every other write (issue and void
 * tickets, change webhook endpoints). Stored in `api_keys.scope`, whose CHECK constraint names the same values.
 */
export const API_KEY_SCOPES = ['read', 'check_in', 'write'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

/** The scope a key is created with unless another is asked for. */
export const DEFAULT_SCOPE: ApiKeyScope = 'read';

export function isApiKeyScope(value: unknown): value is ApiKeyScope {
  return (API_KEY_SCOPES as readonly unknown[]).includes(value);
}

/** Whether a key of scope `held` may do what needs `needed`: a scope includes the ones before it. */
export function scopeAllows(held: ApiKeyScope, needed: ApiKeyScope): boolean {
  return API_KEY_SCOPES.indexOf(held) >= API_KEY_SCOPES.indexOf(needed);
}
