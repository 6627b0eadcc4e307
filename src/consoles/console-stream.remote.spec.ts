import type { MachineOutcome } from '../table-core/table-machine';
import { ConsoleStreamHub } from './console-stream.hub';
import {
  closeOpenHubs,
  dealtRound,
  FACE_DOWN,
  hubFor,
  openHubs,
  PlayedTable,
  RecordingSink,
  table,
} from './console-stream.testing';

afterEach(closeOpenHubs);

describe('console stream hub, tables driven by another instance', () => {
  /** A hub on an instance that does not drive pd-1: it sees the table's stored state only. */
  function remoteHubFor(played: PlayedTable) {
    const stored = { version: 7, state: played.state };
    const loads: number[] = [];
    const hub = new ConsoleStreamHub({ heartbeatMs: 60_000, outboxLagMs: 60_000 });
    openHubs.push(hub);
    hub.start({
      tables: [table],
      registry: {
        get: () => ({ ok: false, code: 'table-not-driven-here', message: 'elsewhere' }),
        onTransition: () => undefined,
        onDatabaseWait: () => undefined,
      },
      scanners: { states: () => [], onStatus: () => () => undefined },
      stored: {
        load: async () => {
          loads.push(stored.version);
          return { ...stored };
        },
      },
      loadCards: async () => played.stored.map((c) => ({ ...c })),
      outboxLag: async () => ({ pending: 0, oldestPendingAt: null, oldestPendingAgeMs: 0 }),
      clock: { now: () => new Date(played.now) },
    });
    /** The owner commits: a newer version is stored. */
    const commit = (outcome: MachineOutcome) => {
      stored.state = outcome.state;
      stored.version += 1;
      return stored.version;
    };
    const settle = () => new Promise((r) => setTimeout(r, 10));
    return { hub, commit, settle, loads };
  }

  it('pushes views rebuilt from the stored state, without face-down cards for the dealer', async () => {
    const { played } = dealtRound();
    const { hub, commit, settle } = remoteHubFor(played);
    const dealer = new RecordingSink();
    const supervisor = new RecordingSink();
    await hub.subscribe(dealer, { tableId: 'pd-1', privileged: false });
    await hub.subscribe(supervisor, { tableId: 'pd-1', privileged: true });
    const version = commit(played.read('9C'));
    hub.remoteChanged({ tableId: 'pd-1', version, kind: 'state' });
    await settle();

    const views = dealer.events('table');
    expect(views).toHaveLength(2);
    expect(views[1]).toMatchObject({ driven: false, drivenElsewhere: true });
    expect(views[1].cards).toContainEqual({ slot: 'player-3/1', hidden: true, card: null });
    expect(views[1]).not.toHaveProperty('faceDownCards');
    for (const code of [...FACE_DOWN, '"9C"']) expect(dealer.chunks.join('')).not.toContain(code);
    // The supervisor's view of the same change carries them (so the check above can fail).
    expect(supervisor.events('table')[1].cards).toContainEqual({
      slot: 'player-3/1',
      hidden: true,
      card: '9C',
    });
  });

  it('drops notices that are not newer than the views already pushed', async () => {
    const { played } = dealtRound();
    const { hub, commit, settle, loads } = remoteHubFor(played);
    const supervisor = new RecordingSink();
    await hub.subscribe(supervisor, { tableId: 'pd-1', privileged: true });
    const v8 = commit(played.read('9C'));
    hub.remoteChanged({ tableId: 'pd-1', version: v8, kind: 'state' });
    await settle();
    const loadsBefore = loads.length;
    // The same notice twice, an older one late, and one without a version (nothing newer stored).
    hub.remoteChanged({ tableId: 'pd-1', version: v8, kind: 'state' });
    hub.remoteChanged({ tableId: 'pd-1', version: v8 - 1, kind: 'state' });
    hub.remoteChanged({ tableId: 'pd-1', kind: 'state' });
    await settle();
    expect(supervisor.events('table')).toHaveLength(2);
    expect(loads.length).toBe(loadsBefore + 1); // only the version-less one was worth a read

    const v9 = commit(played.read('4D'));
    hub.remoteChanged({ tableId: 'pd-1', version: v9, kind: 'state-action' });
    await settle();
    expect(supervisor.events('table')).toHaveLength(3);
    expect(supervisor.events('action')).toEqual([{ tableId: 'pd-1' }]);
  });

  it('coalesces a burst of notices into one read of the stored state per table', async () => {
    const { played } = dealtRound();
    const { hub, commit, settle, loads } = remoteHubFor(played);
    await hub.subscribe(new RecordingSink(), { tableId: 'pd-1', privileged: false });
    const supervisor = new RecordingSink();
    await hub.subscribe(supervisor, { tableId: 'pd-1', privileged: true });
    const loadsBefore = loads.length;
    commit(played.read('9C'));
    for (let i = 0; i < 5; i++) hub.remoteChanged({ tableId: 'pd-1', kind: 'state' });
    // A notice of an action log change folded into the queued refresh is not lost.
    hub.remoteChanged({ tableId: 'pd-1', kind: 'state-action' });
    await settle();
    expect(loads.length).toBe(loadsBefore + 1);
    expect(supervisor.events('action')).toEqual([{ tableId: 'pd-1' }]);
  });

  it('ignores notices of a table driven here: its own transitions push its views', async () => {
    const { played } = dealtRound();
    const { hub } = hubFor(played);
    const supervisor = new RecordingSink();
    await hub.subscribe(supervisor, { tableId: 'pd-1', privileged: true });
    hub.remoteChanged({ tableId: 'pd-1', version: 99, kind: 'state' });
    hub.refreshRemote();
    await new Promise((r) => setTimeout(r, 10));
    expect(supervisor.events('table')).toHaveLength(1);
  });
});
