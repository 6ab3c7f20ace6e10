// TypeORM CLI data source (`npm run typeorm -- migration:generate …`). Same options as the app.
import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { parseDatabaseUrl } from './src/config/app-config';
import { buildDataSourceOptions } from './src/database/data-source-options';

export default new DataSource(
  buildDataSourceOptions(parseDatabaseUrl(process.env.DATABASE_URL)),
);
