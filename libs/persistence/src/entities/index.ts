import { ScannerReadingEntity } from './scanner-reading.entity';
import { StudioTableEntity } from './studio-table.entity';
import { UserEntity, UserSessionEntity } from './user.entity';

export { ScannerReadingEntity, StudioTableEntity, UserEntity, UserSessionEntity };
export { USER_ROLES } from './user.entity';
export type { UserRole } from './user.entity';

/** Every entity the studio's DataSource knows. */
export const STUDIO_ENTITIES = [
  StudioTableEntity,
  ScannerReadingEntity,
  UserEntity,
  UserSessionEntity,
];
