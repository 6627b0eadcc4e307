import { Logger } from '@nestjs/common';
import { logLevel } from 'kafkajs';
import { kafkaLogCreator } from './kafka-log';

describe('kafkaLogCreator', () => {
  const entry = (namespace: string, level: logLevel, message: string) => ({
    namespace,
    level,
    label: '',
    log: { timestamp: '2026-12-01T00:00:00.000Z', message, error: 'The group is rebalancing' },
  });
  let error: jest.SpyInstance;
  let warn: jest.SpyInstance;

  beforeEach(() => {
    error = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => jest.restoreAllMocks());

  it('reports a failed response the client retries itself as a warning', () => {
    kafkaLogCreator('Test')()(
      entry('Connection', logLevel.ERROR, 'Response Heartbeat(key: 12, version: 3)'),
    );
    expect(error).not.toHaveBeenCalled();
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/^kafkajs Connection: Response Heart/));
  });

  it('keeps a consumer crash an error', () => {
    kafkaLogCreator('Test')()(entry('Consumer', logLevel.ERROR, 'Crash: ...'));
    expect(error).toHaveBeenCalledWith(expect.stringContaining('The group is rebalancing'));
    expect(warn).not.toHaveBeenCalled();
  });
});
