import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { validateEnvironment } from '../config/environment';
import { buildDataSourceOptions } from './data-source-options';
import { runMigrations } from './migrate';

/**
 * The DataSource of the command-line tools (seed, apikey, migrate): the same settings and options
 * as the service, migrated to the latest schema.
 */
export async function openCliDataSource(): Promise<DataSource> {
  const config = new AppConfig(validateEnvironment(process.env));
  const dataSource = new DataSource(
    buildDataSourceOptions(config.database, {
      poolSize: 2,
      statementTimeoutMs: 0,
      connectTimeoutMs: config.dbConnectTimeoutMs,
    }),
  );
  await dataSource.initialize();
  await runMigrations(dataSource);
  return dataSource;
}
