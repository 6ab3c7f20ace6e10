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
  /**
   * @nestjs/config's forRoot of this process: it loads `.env` and validates the environment, and
   * rejects when a setting is invalid (then its `envVariablesLoaded` never resolves).
   */
  private static environmentLoaded: Promise<DynamicModule> | undefined;

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
    ConfigModule.environmentLoaded = NestConfigModule.forRoot({
      cache: true,
      validate: validateEnvironment,
    });
    return {
      module: ConfigModule,
      imports: [ConfigModule.environmentLoaded],
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
    // forRoot's own promise, which rejects on an invalid setting: waiting on envVariablesLoaded
    // alone left the boot waiting forever on a bad setting (PORT=abc, a short METRICS_TOKEN), and
    // the process ended with nothing printed and exit code 0.
    await (ConfigModule.environmentLoaded ??
      NestConfigModule.envVariablesLoaded);
    return new AppConfig(validateEnvironment(process.env));
  }
}
