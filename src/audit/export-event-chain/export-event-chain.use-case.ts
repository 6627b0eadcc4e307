import { historyReader, HistorySource } from '../../history/reader/history-reader';
import { onlyKnownParams, textParam } from '../audit-params';
import { AuditRequestError, validated } from '../audit-query';

const PAGE = 2_000;

/** The table whose chain to export, checked before the first byte. */
export class ExportEventChainQuery {
  private constructor(readonly tableId: string) {}

  static create(params: { tableId?: unknown }): ExportEventChainQuery | AuditRequestError {
    return validated(() => {
      onlyKnownParams(params, ['tableId']);
      const tableId = textParam('tableId', params.tableId);
      if (tableId === undefined) throw new AuditRequestError('bad-request', 'tableId is required');
      return new ExportEventChainQuery(tableId);
    });
  }
}

/**
 * A table's hash chain as NDJSON, one event a line in chain order with every hashed field
 * (docs/chain.md), for verifiers outside the service (tools/verify_chain.py). Face-down cards
 * reach no auditor before the round ends: an event of a round in progress is a `withheld` line
 * with its number, version and hashes only (its salt keeps the hash from being matched against
 * card candidates). A version-1 event has no salt, so the export ends before such an event of a
 * round in progress. Streamed page by page.
 */
export class ExportEventChain {
  constructor(private readonly source: HistorySource) {}

  async *chunks(query: ExportEventChainQuery): AsyncGenerator<string> {
    const events = historyReader(this.source).events;
    let afterNo = 0;
    for (;;) {
      const page = await events.exportPage(query.tableId, afterNo, PAGE);
      let out = '';
      for (const { id: _id, roundEnded, ...e } of page) {
        if (roundEnded) out += `${JSON.stringify(e)}\n`;
        else if (e.chainVersion === 1) {
          if (out) yield out;
          return;
        } else {
          const { tableId, eventNo, chainVersion, prevHash, hash } = e;
          out += `${JSON.stringify({ tableId, eventNo, chainVersion, prevHash, hash, withheld: true })}\n`;
        }
      }
      if (out) yield out;
      if (page.length < PAGE) return;
      afterNo = page[page.length - 1].eventNo;
    }
  }
}
