// TypeORM CLI data source (`npm run typeorm -- migration:generate …`): the same validated
// settings and options as the service.
import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { AppConfig } from './src/config/app-config';
import { validateEnvironment } from './src/config/environment';
import { buildDataSourceOptions } from './src/database/data-source-options';

export default new DataSource(
  buildDataSourceOptions(
    new AppConfig(validateEnvironment(process.env)).database,
  ),
);
