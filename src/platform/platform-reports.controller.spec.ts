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
