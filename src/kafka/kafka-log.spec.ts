import { Logger } from '@nestjs/common';
import { logLevel } from 'kafkajs';
import { kafkaLogCreator, warningSink } from './kafka-log';

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
    kafkaLogCreator('Test', { errors: 'consumer-crash' })()(
      entry('Connection', logLevel.ERROR, 'Response Heartbeat(key: 12, version: 3)'),
    );
    expect(error).not.toHaveBeenCalled();
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/^kafkajs Connection: Response Heart/));
  });

  it('keeps a consumer crash an error', () => {
    kafkaLogCreator('Test', { errors: 'consumer-crash' })()(
      entry('Consumer', logLevel.ERROR, 'Crash: ...'),
    );
    expect(error).toHaveBeenCalledWith(expect.stringContaining('The group is rebalancing'));
    expect(warn).not.toHaveBeenCalled();
  });

  it('makes every line a warning for a client whose caller reports its own failures', () => {
    kafkaLogCreator('Test', { errors: 'warnings' })()(
      entry('Producer', logLevel.ERROR, 'Failed to send messages'),
    );
    expect(error).not.toHaveBeenCalled();
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/^kafkajs Producer: Failed to send/));
  });

  it('drops the lines the caller expects', () => {
    const log = kafkaLogCreator('Test', { errors: 'warnings', expected: /Limiting retries/ })();
    log(entry('Producer', logLevel.WARN, 'Limiting retries for the idempotent producer to 3'));
    expect(warn).not.toHaveBeenCalled();
    log(entry('Producer', logLevel.WARN, 'Something else'));
    expect(warn).toHaveBeenCalledTimes(1);
  });

  it('sends every line through one function for a worker', () => {
    const lines: string[] = [];
    kafkaLogCreator(
      warningSink((l) => lines.push(l)),
      { errors: 'warnings' },
    )()(entry('Producer', logLevel.ERROR, 'Connection error'));
    expect(lines).toEqual([
      'kafkajs Producer: Connection error {"error":"The group is rebalancing"}',
    ]);
  });
});
