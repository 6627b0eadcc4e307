import type { Logger } from '@nestjs/common';
import type { ItemResult, TableInput } from '../table-core/table-machine';

/** One line per batch, counted by code (a window of 100,000 refusals is not 100,000 lines). */
export function logBatchRejections(logger: Logger, results: readonly ItemResult[]): void {
  const byCode = new Map<string, number>();
  let refused = 0;
  for (const r of results) {
    if (r.accepted) continue;
    refused += 1;
    byCode.set(r.code, (byCode.get(r.code) ?? 0) + 1);
  }
  if (refused === 0) return;
  const counts = [...byCode].map(([code, n]) => `${code} x${n}`).join(', ');
  logger.debug(`${refused} of ${results.length} commands refused: ${counts}`);
}

/**
 * Refusals are logged with their code; the message only where it cannot name a card (a reading
 * or a correction may concern a face-down card, which must never reach a log line). A platform's
 * bet, decision or cancellation refused is its caller's answer (HTTP 4xx, the answers topic):
 * debug.
 */
export function logRejection(
  logger: Logger,
  input: TableInput,
  rejection: { code: string; message: string },
): void {
  const mayNameACard = input.type === 'reading' || input.type === 'correct-card';
  const platforms = input.type === 'bet' || input.type === 'decide' || input.type === 'cancel-bet';
  logger[platforms ? 'debug' : 'warn'](
    `${input.type} refused: ${rejection.code}${mayNameACard ? '' : `: ${rejection.message}`}`,
  );
}
