import { Global, Module } from '@nestjs/common';
import {
  ConfigModule as NestConfigModule,
  ConfigService,
} from '@nestjs/config';
import { AppConfig } from './app-config';
import { Environment, validateEnvironment } from './environment';

/**
 * @nestjs/config loads `.env` (if present) and validates the environment once at boot; the rest of
 * the code injects the typed AppConfig.
 */
@Global()
@Module({
  imports: [
    NestConfigModule.forRoot({
      cache: true,
      validate: (raw) => ({ ...validateEnvironment(raw) }),
    }),
  ],
  providers: [
    {
      provide: AppConfig,
      inject: [ConfigService],
      useFactory: (config: ConfigService) =>
        new AppConfig(
          Object.assign(
            new Environment(),
            Object.fromEntries(
              Object.keys(new Environment())
                .concat('DATABASE_URL', 'REDIS_URL')
                .map((key) => [key, config.get(key)]),
            ),
          ),
        ),
    },
  ],
  exports: [AppConfig],
})
export class ConfigModule {}
