import { Module } from '@nestjs/common';
import { RateLimitModule } from '../common/rate-limit/rate-limit.module';
import { ApiKeysService } from './api-keys.service';
import { AuthMiddleware } from './auth.middleware';
import { AuthService } from './auth.service';

@Module({
  imports: [RateLimitModule],
  providers: [AuthService, ApiKeysService, AuthMiddleware],
  exports: [AuthService, ApiKeysService, AuthMiddleware],
})
export class AuthModule {}
