import { randomUUID } from 'node:crypto';

/** The only source of "now" in the service, so tests and replays control time. Always UTC. */
export abstract class Clock {
  abstract now(): Date;
}

export class SystemClock extends Clock {
  now(): Date {
    return new Date();
  }
}

/** The only source of new identifiers (event ids, round ids), injectable for deterministic tests. */
export abstract class IdGenerator {
  abstract newId(): string;
}

export class RandomUuidGenerator extends IdGenerator {
  newId(): string {
    return randomUUID();
  }
}
