import { OutboxEventEntity } from './outbox-event.entity';
import { ScannerReadingEntity } from './scanner-reading.entity';
import { StudioTableEntity } from './studio-table.entity';

export { OutboxEventEntity, ScannerReadingEntity, StudioTableEntity };

/** Every entity the studio's DataSource knows. */
export const STUDIO_ENTITIES = [StudioTableEntity, OutboxEventEntity, ScannerReadingEntity];
