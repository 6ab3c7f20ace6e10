import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { ApiError } from '../common/errors/api-error';
import { type ApiKeyScope, scopeAllows } from './api-key-scopes';
import { IS_PUBLIC } from './public.decorator';
import { REQUIRED_SCOPE } from './requires-scope.decorator';

/**
 * Global guard: every route needs a valid key unless marked @Public(); a wrong key is refused even
 * on public routes, so integrations can test their key with `GET /v1/ping`. A route marked
 * @RequiresScope answers a key without that scope 403 (docs/API.md, "Key scopes").
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<Request>();
    if (request.authFailed) throw ApiError.unauthorized();
    const targets = [context.getHandler(), context.getClass()];
    const isPublic = this.reflector.getAllAndOverride<boolean>(
      IS_PUBLIC,
      targets,
    );
    const { caller } = request;
    if (!caller) {
      if (isPublic) return true;
      throw ApiError.unauthorized();
    }
    const needed = this.reflector.getAllAndOverride<ApiKeyScope | undefined>(
      REQUIRED_SCOPE,
      targets,
    );
    if (needed !== undefined && !scopeAllows(caller.scope, needed)) {
      throw ApiError.forbidden(
        `This API key may not ${SCOPE_WORDS[needed]}: create a key with scope ${needed} (npm run apikey -- create --box-office <id> --scope ${needed})`,
      );
    }
    return true;
  }
}

/** What each scope lets a key do, for the 403's message. */
const SCOPE_WORDS: Record<ApiKeyScope, string> = {
  read: 'read',
  check_in: 'record scans',
  write: 'make writes (issue or void tickets, change webhook endpoints)',
};
