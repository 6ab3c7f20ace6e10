import { Module } from '@nestjs/common';
import { ApiKeysService } from './api-keys.service';
import { AuthMiddleware } from './auth.middleware';
import { AuthService } from './auth.service';

@Module({
  providers: [AuthService, ApiKeysService, AuthMiddleware],
  exports: [AuthService, ApiKeysService, AuthMiddleware],
})
export class AuthModule {}
