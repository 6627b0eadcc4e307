import { BadRequestException } from '@nestjs/common';
import type { Response } from 'express';
import type { HistoryReader } from '../history/reader/history-reader';
import type { Platform } from '../platforms/platform-directory';
import { PlatformReportsController } from './platform-reports.controller';

describe('PlatformReportsController.report', () => {
  const history = {
    platforms: { settlementReport: jest.fn(async () => []) },
  } as unknown as HistoryReader;
  const controller = new PlatformReportsController(history);
  const platform = { id: 'casino-a', currencies: ['EUR'] } as unknown as Platform;
  const response = { setHeader: jest.fn() } as unknown as Response;

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
});
