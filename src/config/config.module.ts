import { Global, Module } from '@nestjs/common';
import {
  ConfigModule as NestConfigModule,
  ConfigService,
} from '@nestjs/config';
import { AppConfig } from './app-config';
import { Environment, SETTING_NAMES, validateEnvironment } from './environment';

/**
 * @nestjs/config loads `.env` (if present) and validates the environment once at boot; the rest of
 * the code injects the typed AppConfig.
 */
@Global()
@Module({
  imports: [
    NestConfigModule.forRoot({
      cache: true,
      validate: validateEnvironment,
      // Tests build AppConfig themselves; a stray .env must not leak into them.
      ignoreEnvFile: process.env.NODE_ENV === 'test',
    }),
  ],
  providers: [
    {
      provide: AppConfig,
      inject: [ConfigService],
      // ConfigService answers each setting from the validated (converted) values.
      useFactory: (config: ConfigService) =>
        new AppConfig(
          Object.assign(
            new Environment(),
            Object.fromEntries(
              SETTING_NAMES.map((key) => [key, config.get(key)]),
            ),
          ),
        ),
    },
  ],
  exports: [AppConfig],
})
export class ConfigModule {}
