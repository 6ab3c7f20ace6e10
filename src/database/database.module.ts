import { Injectable, Logger, Module, OnModuleInit } from '@nestjs/common';
import { InjectDataSource, TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { buildDataSourceOptions } from './data-source-options';
import { DatabaseMetrics } from './database-metrics';
import { runMigrations } from './migrate';
import { WalCheckpoints } from './wal-checkpoints';

/** Applies pending migrations before the service takes requests, unless MIGRATIONS_RUN=false. */
@Injectable()
export class MigrationsOnStart implements OnModuleInit {
  private readonly logger = new Logger('Migrations');

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly config: AppConfig,
  ) {}

  async onModuleInit() {
    if (!this.config.migrationsRun) return;
    const applied = await runMigrations(this.dataSource);
    if (applied.length > 0) {
      this.logger.log(`applied ${applied.map((m) => m.name).join(', ')}`);
    }
  }
}

/** A database server that may still be starting: worth another connection attempt. */
function isStartingUp(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ECONNREFUSED' || code === '57P03';
}

@Module({
  imports: [
    TypeOrmModule.forRootAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => ({
        ...buildDataSourceOptions(config.database, {
          poolSize: config.dbPoolSize,
          statementTimeoutMs: config.dbStatementTimeoutMs,
          connectTimeoutMs: config.dbConnectTimeoutMs,
        }),
        // At boot, wait a few seconds for a PostgreSQL server that is still starting (refused
        // connections, "starting up"); anything else (no such database, bad credentials, an
        // SQLite file that cannot be opened) fails at once. main.ts reports it in one line.
        retryAttempts: config.nodeEnv === 'test' ? 0 : 3,
        retryDelay: 1000,
        toRetry: isStartingUp,
      }),
    }),
  ],
  providers: [MigrationsOnStart, DatabaseMetrics, WalCheckpoints],
})
export class DatabaseModule {}
