import { DynamicModule, Global, Module, Provider } from '@nestjs/common';
import {
  ConfigModule as NestConfigModule,
  ConfigService,
} from '@nestjs/config';
import { AppConfig } from './app-config';
import { Environment, SETTING_NAMES, validateEnvironment } from './environment';

/**
 * Provides the typed AppConfig to the rest of the code. Without a config given, @nestjs/config
 * loads `.env` (if present) and validates the environment once at boot; tests give their own, and
 * then no environment or `.env` is read at all.
 */
@Global()
@Module({})
export class ConfigModule {
  static forRoot(config?: AppConfig): DynamicModule {
    if (config) {
      return {
        module: ConfigModule,
        providers: [{ provide: AppConfig, useValue: config }],
        exports: [AppConfig],
      };
    }
    const fromEnvironment: Provider = {
      provide: AppConfig,
      inject: [ConfigService],
      // ConfigService answers each setting from the validated (converted) values.
      useFactory: (settings: ConfigService) =>
        new AppConfig(
          Object.assign(
            new Environment(),
            Object.fromEntries(
              SETTING_NAMES.map((key) => [key, settings.get(key)]),
            ),
          ),
        ),
    };
    return {
      module: ConfigModule,
      imports: [
        NestConfigModule.forRoot({
          cache: true,
          validate: validateEnvironment,
        }),
      ],
      providers: [fromEnvironment],
      exports: [AppConfig],
    };
  }

  /**
   * The settings the app runs with, for a module whose shape depends on one (MetricsModule routes
   * /metrics only while METRICS_TOKEN is set): `config` when given, else the environment's once
   * forRoot has loaded (`.env` included) and validated it.
   */
  static async settings(config?: AppConfig): Promise<AppConfig> {
    if (config) return config;
    await NestConfigModule.envVariablesLoaded;
    return new AppConfig(validateEnvironment(process.env));
  }
}
