import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_INTERCEPTOR, APP_PIPE } from '@nestjs/core';
import { LoggerModule } from 'nestjs-pino';
import type { DestinationStream } from 'pino';
import { ApiKeyGuard } from './auth/api-key.guard';
import { AuthModule } from './auth/auth.module';
import { ChangesModule } from './changes/changes.module';
import { AllExceptionsFilter } from './common/errors/all-exceptions.filter';
import { RateLimitModule } from './common/rate-limit/rate-limit.module';
import { StrictValidationPipe } from './common/validation/validation.pipe';
import { AppConfig } from './config/app-config';
import { CheckInsModule } from './check-ins/check-ins.module';
import { ConfigModule } from './config/config.module';
import { DatabaseModule } from './database/database.module';
import { EventSeriesModule } from './event-series/event-series.module';
import { EventsModule } from './events/events.module';
import { HealthModule } from './health/health.module';
import { IssuedTicketsModule } from './issued-tickets/issued-tickets.module';
import { loggerOptions } from './logger-options';
import { OrdersModule } from './orders/orders.module';
import { OverviewModule } from './overview/overview.module';
import { RevalidationInterceptor } from './sync/revalidation';
import { SyncModule } from './sync/sync.module';

/**
 * Every global behaviour is registered here. App-level settings live in createApp (create-app.ts),
 * the one bootstrap: among them the request pipeline (request id, compression, CORS, API key
 * identification and rate limiting), which must run before Swagger's routes.
 */
@Module({
  imports: [
    DatabaseModule,
    RateLimitModule,
    AuthModule,
    HealthModule,
    OrdersModule,
    EventsModule,
    EventSeriesModule,
    IssuedTicketsModule,
    CheckInsModule,
    SyncModule,
    ChangesModule,
    OverviewModule,
  ],
  providers: [
    { provide: APP_FILTER, useClass: AllExceptionsFilter },
    { provide: APP_PIPE, useClass: StrictValidationPipe },
    { provide: APP_GUARD, useClass: ApiKeyGuard },
    { provide: APP_INTERCEPTOR, useClass: RevalidationInterceptor },
  ],
})
export class AppModule {
  /**
   * The settings come from the environment unless `config` is given (tests); logs go to stdout
   * unless `logDestination` is given (tests capture them), written synchronously when
   * `synchronousLogs` (the demo server).
   */
  static forRoot(
    options: {
      config?: AppConfig;
      logDestination?: DestinationStream;
      synchronousLogs?: boolean;
    } = {},
  ): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(options.config),
        LoggerModule.forRootAsync({
          inject: [AppConfig],
          useFactory: (config: AppConfig) =>
            loggerOptions(
              config,
              options.logDestination,
              options.synchronousLogs,
            ),
        }),
      ],
    };
  }
}
