import { STUDIO_ENTITIES } from '@studio/persistence';
import { DataSource } from 'typeorm';
import { STUDIO_MIGRATIONS } from '../../migrations';

export interface DataSourceSettings {
  url: string;
  poolSize: number;
  connectTimeoutMs: number;
  applicationName?: string;
}

/**
 * The one DataSource definition shared by the service, the migration CLI and the tests. Schema
 * changes happen only through migrations: `synchronize` stays off everywhere.
 */
export function createStudioDataSource(settings: DataSourceSettings): DataSource {
  return new DataSource({
    type: 'postgres',
    url: settings.url,
    entities: STUDIO_ENTITIES,
    migrations: STUDIO_MIGRATIONS,
    migrationsTableName: 'schema_migrations',
    migrationsTransactionMode: 'each',
    synchronize: false,
    logging: false,
    extra: {
      max: settings.poolSize,
      connectionTimeoutMillis: settings.connectTimeoutMs,
      application_name: settings.applicationName ?? 'live-dealer-studio',
    },
  });
}
