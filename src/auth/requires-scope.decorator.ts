import { SetMetadata } from '@nestjs/common';
import type { ApiKeyScope } from './api-key-scopes';

export const REQUIRED_SCOPE = 'requiredScope';

/**
 * A route that only keys of this scope may call (docs/API.md, "Key scopes"); ApiKeyGuard answers
 * any other key 403 FORBIDDEN before the handler runs. Routes without it need `read`.
 */
export const RequiresScope = (scope: ApiKeyScope) =>
  SetMetadata(REQUIRED_SCOPE, scope);
