import { BadRequestException } from '@nestjs/common';
import type { Response } from 'express';
import { Clock } from '../clock/clock';
import type { HistoryReader } from '../history/reader/history-reader';
import type { OpenRounds } from '../history/reader/platform-records.reader';
import type { Platform } from '../platforms/platform-directory';
import { PlatformReportsController } from './platform-reports.controller';

class FixedClock extends Clock {
  constructor(public at: Date) {
    super();
  }
  now(): Date {
    return this.at;
  }
}

describe('PlatformReportsController.report', () => {
  let open: OpenRounds[] = [];
  const platforms = {
    settlementReport: jest.fn(async () => []),
    openRounds: jest.fn(async () => open),
  };
  const history = { platforms } as unknown as HistoryReader;
  const clock = new FixedClock(new Date('2026-12-10T12:00:00Z'));
  const controller = new PlatformReportsController(history, clock);
  const platform = { id: 'casino-a', currencies: ['EUR'] } as unknown as Platform;
  const headers: Record<string, string> = {};
  const response = {
    setHeader: jest.fn((name: string, value: string) => (headers[name] = value)),
  } as unknown as Response;

  beforeEach(() => {
    open = [];
    clock.at = new Date('2026-12-10T12:00:00Z');
  });

  it.each(['xml', 'CSV', '', 'json,csv'])('refuses format=%j, naming the field', async (format) => {
    const answer = controller.report(platform, { from: '2026-12-04', format }, response);
    await expect(answer).rejects.toBeInstanceOf(BadRequestException);
    await expect(answer).rejects.toMatchObject({
      response: { error: 'invalid-format', message: expect.stringContaining('format') },
    });
  });

  it.each([
    [{ from: '2026-12-01', unitl: '2026-12-31' }, 'unitl'],
    [{ from: '2026-12-04', tableId: 'ibj-1' }, 'tableId'],
    [{ from: '2026-12-04', currency: 'EUR', format: 'csv' }, 'currency'],
  ])(
    'refuses a parameter it does not read (%j), rather than answer another report',
    async (query, name) => {
      const answer = controller.report(platform, query, response);
      await expect(answer).rejects.toBeInstanceOf(BadRequestException);
      await expect(answer).rejects.toMatchObject({
        response: { error: 'unknown-parameter', message: expect.stringContaining(`"${name}"`) },
      });
    },
  );

  it.each([undefined, 'json', 'csv'])('answers format=%j', async (format) => {
    await expect(
      controller.report(platform, { from: '2026-12-04', format }, response),
    ).resolves.toBeDefined();
  });

  it('reads the rounds still open and the figures over the same days, ending after the last', async () => {
    await controller.report(platform, { from: '2026-12-04', to: '2026-12-05' }, response);
    const days = [new Date('2026-12-04T00:00:00Z'), new Date('2026-12-06T00:00:00Z')];
    expect(platforms.openRounds).toHaveBeenLastCalledWith('casino-a', ...days);
    expect(platforms.settlementReport).toHaveBeenLastCalledWith('casino-a', ...days);
  });

  it("calls a report final by the injected clock: a past day's is, today's is not", async () => {
    const past = await controller.report(platform, { from: '2026-12-09' }, response);
    expect(past).toMatchObject({ final: true, openRounds: 0, openRoundsByTable: [] });
    expect(headers).toMatchObject({ 'Report-Final': 'true', 'Report-Open-Rounds': '0' });
    const today = await controller.report(platform, { from: '2026-12-10' }, response);
    expect(today).toMatchObject({ final: false, openRounds: 0 });
    expect(headers).toMatchObject({ 'Report-Final': 'false' });
    clock.at = new Date('2026-12-11T00:00:00Z');
    expect(await controller.report(platform, { from: '2026-12-10' }, response)).toMatchObject({
      final: true,
    });
  });

  it('is not final while a round of its days is open; the CSV says so on each record', async () => {
    open = [{ tableId: 'ibj-1', rounds: 2 }];
    expect(await controller.report(platform, { from: '2026-12-09' }, response)).toMatchObject({
      final: false,
      openRounds: 2,
      openRoundsByTable: [{ tableId: 'ibj-1', rounds: 2 }],
    });
    expect(headers).toMatchObject({ 'Report-Final': 'false', 'Report-Open-Rounds': '2' });
    platforms.settlementReport.mockResolvedValueOnce([
      {
        day: '2026-12-09',
        tableId: 'ibj-1',
        currency: 'EUR',
        rounds: 1,
        bets: 1,
        stake: 100,
        payout: 0,
        refunds: 0,
        cancellations: 0,
        cancelledStake: 0,
        net: -100,
      },
    ] as never);
    const csv = (await controller.report(
      platform,
      { from: '2026-12-09', format: 'csv' },
      response,
    )) as string;
    expect(csv.split('\r\n')[1]).toBe('2026-12-09,ibj-1,EUR,1,1,100,0,0,0,-100,0,false,2');
  });
});

describe('PlatformReportsController.round', () => {
  const roundId = '9e69c186-0c5d-4e46-ab2d-42033af61eb9';
  const face = (slot: string, card: string, revealedAt: string | null = null) => ({
    slot,
    card,
    faceDown: true,
    revealedAt,
  });
  const up = (slot: string, card: string) => ({ slot, card, faceDown: false, revealedAt: 'x' });
  const setup = (cards: unknown[], hands: unknown[]) => {
    const history = {
      platforms: { round: jest.fn(async () => ({ roundId, status: 'voided', bets: [] })) },
      cards: {
        inDealingOrder: jest.fn(async () => cards),
        handsOfRound: jest.fn(async () => hands),
      },
    } as unknown as HistoryReader;
    return new PlatformReportsController(history, new FixedClock(new Date()));
  };
  const platform = { id: 'casino-a', currencies: ['THB'] } as unknown as Platform;

  it('never gives a card that was not revealed at the table, neither in cards nor in hands (a voided Pok Deng round)', async () => {
    const controller = setup(
      [
        face('burn', 'JD'),
        face('player-1/1', '4S'),
        face('banker/1', 'AD'),
        face('player-1/2', '2S'),
      ],
      [
        { hand: 'player-1', owner: null, cards: ['4S', '2S'], total: '6', result: null },
        { hand: 'banker', owner: null, cards: ['AD'], total: '', result: null },
      ],
    );
    const answer = await controller.round(platform, roundId);
    expect(JSON.stringify(answer)).not.toMatch(/"(JD|4S|AD|2S)"/);
    expect(answer.cards).toEqual([
      { slot: 'burn', faceDown: true },
      { slot: 'player-1/1', faceDown: true },
      { slot: 'banker/1', faceDown: true },
      { slot: 'player-1/2', faceDown: true },
    ]);
    expect(answer.hands).toEqual([
      { hand: 'player-1', owner: null, cards: [null, null], total: null, result: null },
      { hand: 'banker', owner: null, cards: [null], total: null, result: null },
    ]);
  });

  it("withholds a voided blackjack round's hole card, also where the up card has its value", async () => {
    const controller = setup(
      [up('dealer-up', 'AS'), face('dealer-hole', 'AS'), up('1/1', '9C'), up('1/2', '7D')],
      [
        { hand: 'dealer', owner: null, cards: ['AS', 'AS'], total: 'soft 12', result: null },
        { hand: 'seat-1', owner: 'casino-a:alice', cards: ['9C', '7D'], total: '16', result: null },
        { hand: 'seat-2', owner: 'casino-b:alice', cards: ['9C', '7D'], total: '16', result: null },
      ],
    );
    const answer = await controller.round(platform, roundId);
    expect(answer.hands).toEqual([
      { hand: 'dealer', owner: null, cards: [null, null], total: null, result: null },
      { hand: 'seat-1', owner: 'alice', cards: ['9C', '7D'], total: '16', result: null },
    ]);
    expect(answer.cards).toContainEqual({ slot: 'dealer-up', card: 'AS' });
  });

  it("gives a completed Pok Deng round's hands whole, its burn card (never revealed) by its slot only", async () => {
    const controller = setup(
      [face('burn', '4S'), face('player-1/1', '4S', 'at'), face('player-1/2', '2S', 'at')],
      [{ hand: 'player-1', owner: null, cards: ['4S', '2S'], total: '6', result: 'win' }],
    );
    const answer = await controller.round(platform, roundId);
    expect(answer.cards[0]).toEqual({ slot: 'burn', faceDown: true });
    expect(answer.hands).toEqual([
      { hand: 'player-1', owner: null, cards: ['4S', '2S'], total: '6', result: 'win' },
    ]);
  });

  it('gives every card and total once revealed', async () => {
    const controller = setup(
      [face('player-1/1', '4S', 'at'), face('player-1/2', '2S', 'at')],
      [{ hand: 'player-1', owner: null, cards: ['4S', '2S'], total: '6', result: 'win' }],
    );
    const answer = await controller.round(platform, roundId);
    expect(answer.hands).toEqual([
      { hand: 'player-1', owner: null, cards: ['4S', '2S'], total: '6', result: 'win' },
    ]);
    expect(answer.cards).toEqual([
      { slot: 'player-1/1', card: '4S' },
      { slot: 'player-1/2', card: '2S' },
    ]);
  });
});
