import { ExecutionContext, createParamDecorator } from '@nestjs/common';
import type { Request } from 'express';
import { ApiError } from '../common/errors/api-error';
import type { Caller } from './auth.service';

/** The verified caller of a guarded route. */
export const CurrentCaller = createParamDecorator(
  (_data: unknown, context: ExecutionContext): Caller => {
    const caller = context.switchToHttp().getRequest<Request>().caller;
    if (!caller) throw ApiError.unauthorized();
    return caller;
  },
);
