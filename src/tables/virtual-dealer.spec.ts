import type { DrivenTablesListener, TableRuntimeRegistry } from './table-runtime.registry';
import { VirtualDealer, VirtualShoeControl } from './virtual-dealer';

/** A table between rounds at shoe `shoeNumber` (id `shoeId`) with `drawn` cards dealt from it. */
function snapshot(shoeId: string, shoeNumber: number, drawn: number) {
  return {
    phase: { kind: 'idle' },
    shoe: {
      id: shoeId,
      state: { shoeNumber, cardsDrawn: drawn, lastRoundNumber: null, rules: { deckCount: 8 } },
    },
    ingestion: { counts: [drawn] },
  };
}

function setup() {
  let listener: DrivenTablesListener | undefined;
  let state = snapshot('shoe-4', 4, 10);
  const registry = {
    onDriven: (l: DrivenTablesListener) => (listener = l),
    get: () => ({
      ok: true,
      runtime: { snapshot: state, machine: { expected: () => false } },
    }),
  } as unknown as TableRuntimeRegistry;
  const calls: string[] = [];
  const shoes: VirtualShoeControl = {
    isVirtual: () => true,
    dealVirtualCard: async () => undefined,
    newVirtualShoe: (_id, n) => void calls.push(`new ${n}`),
    resumeVirtualShoe: (_id, n, counts) => void calls.push(`resume ${n} after ${counts[0]}`),
  };
  const dealer = new VirtualDealer(registry, shoes, 0);
  return {
    calls,
    dealer,
    driven: () => listener!.running('t'),
    lost: () => listener!.stopping('t'),
    set: (next: ReturnType<typeof snapshot>) => (state = next),
  };
}

describe('VirtualDealer and a table that comes back', () => {
  it('resumes a part-dealt shoe from the table counts each time it drives the table again', () => {
    const t = setup();
    t.driven();
    // Another instance dealt on from the same shoe while the table was away.
    t.lost();
    t.set(snapshot('shoe-4', 4, 30));
    t.driven();
    expect(t.calls).toEqual(['resume 4 after 10', 'resume 4 after 30']);
    t.dealer.stop();
  });

  it('resumes, not reshuffles, a new shoe another instance started and dealt from', () => {
    const t = setup();
    t.driven();
    t.lost();
    t.set(snapshot('shoe-5', 5, 12));
    t.driven();
    expect(t.calls).toEqual(['resume 4 after 10', 'resume 5 after 12']);
    t.dealer.stop();
  });

  it('shuffles a new shoe the table starts while this instance drives it', () => {
    const t = setup();
    t.driven();
    t.set(snapshot('shoe-5', 5, 0));
    t.dealer.onTransition('t');
    expect(t.calls).toEqual(['resume 4 after 10', 'new 5']);
    t.dealer.stop();
  });
});
