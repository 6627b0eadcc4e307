import { OutboxEventEntity } from './outbox-event.entity';
import { StudioTableEntity } from './studio-table.entity';

export { OutboxEventEntity, StudioTableEntity };

/** Every entity the studio's DataSource knows. */
export const STUDIO_ENTITIES = [StudioTableEntity, OutboxEventEntity];
