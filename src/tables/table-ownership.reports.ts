import type { TableLease } from './ports';

/** A lease row as it is now, to say why a renewal did not return it. */
export interface LeaseNow {
  owner: string;
  epoch: number;
  released: boolean;
}

/**
 * Why a held lease was not renewed, as far as the database tells: another instance took it (its
 * id and epoch), a second process under this instance id took it, or it is gone. Never guessed.
 */
export function lossReason(lease: TableLease, now: LeaseNow | undefined | null): string {
  if (now === null) return 'the database could not say why (asked and failed)';
  if (!now) return 'its lease row is gone';
  if (now.owner !== lease.owner) {
    return `instance "${now.owner}" took it under epoch ${now.epoch}`;
  }
  if (now.epoch !== lease.epoch) {
    return (
      `it was taken again under this instance id (epoch ${now.epoch}): ` +
      'another process runs with the same STUDIO_INSTANCE_ID'
    );
  }
  return now.released ? 'it was released' : 'its lease is no longer renewable';
}

/** Seconds, one decimal, for log lines. */
export function seconds(ms: number): string {
  return (ms / 1000).toFixed(1);
}

/** The tables as a short list for one log line (300 ids are not one line). */
export function tableList(ids: readonly string[], max = 12): string {
  if (ids.length <= max) return ids.join(', ');
  return `${ids.slice(0, max).join(', ')} and ${ids.length - max} more`;
}
