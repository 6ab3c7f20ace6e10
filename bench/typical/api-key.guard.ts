import {
  CanActivate,
  ExecutionContext,
  Injectable,
  UnauthorizedException,
} from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { createHash } from 'node:crypto';
import type { Request } from 'express';
import { IsNull, Repository } from 'typeorm';
import { ApiKey } from '../../src/auth/entities/api-key.entity';

export type AuthedRequest = Request & { boxOfficeId: number };

/** Basic auth with the API key as user name, looked up by its hash on every request. */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    @InjectRepository(ApiKey) private readonly keys: Repository<ApiKey>,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<AuthedRequest>();
    const [scheme, encoded] = (request.headers.authorization ?? '').split(' ');
    if (scheme?.toLowerCase() !== 'basic' || !encoded) throw unauthorized();
    const key = Buffer.from(encoded, 'base64').toString('utf8').split(':')[0];
    const apiKey = await this.keys.findOne({
      where: {
        keyHash: createHash('sha256').update(key).digest('hex'),
        revokedAt: IsNull(),
      },
    });
    if (!apiKey) throw unauthorized();
    request.boxOfficeId = apiKey.boxOfficeId;
    return true;
  }
}

function unauthorized() {
  return new UnauthorizedException({
    status: 401,
    error_code: 'UNAUTHORIZED',
    message: 'Send a valid API key as the user name of HTTP Basic auth',
  });
}
