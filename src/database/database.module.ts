import { Injectable, Logger, Module, OnModuleInit } from '@nestjs/common';
import { InjectDataSource, TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { buildDataSourceOptions } from './data-source-options';
import { runMigrations } from './migrate';

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
        // At boot, wait a little for a database that is still starting; then fail loudly.
        retryAttempts: config.nodeEnv === 'test' ? 0 : 5,
        retryDelay: 2000,
      }),
    }),
  ],
  providers: [MigrationsOnStart],
})
export class DatabaseModule {}
