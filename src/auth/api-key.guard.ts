import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { ApiError } from '../common/errors/api-error';
import { IS_PUBLIC } from './public.decorator';

/**
 * Global guard: every route needs a valid key unless marked @Public(); a wrong key is refused even
 * on public routes, so integrations can test their key with `GET /v1/ping`.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<Request>();
    if (request.authFailed) throw ApiError.unauthorized();
    const isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [
      context.getHandler(),
      context.getClass(),
    ]);
    if (isPublic || request.caller) return true;
    throw ApiError.unauthorized();
  }
}
