import type { ArgumentMetadata, PipeTransform } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { COMMAND_VALIDATORS, eventValidator } from '@studio/contracts';
import { playerKey } from '../common/player-key';
import { luxBetIdOf } from '../games/blackjack-lux/blackjack-lux.adapter';
import { betIdOf } from '../games/infinite-blackjack/infinite-blackjack.adapter';
import { PlatformHttpController } from './platform-http.controller';

/**
 * A betId is built from the round, the player's key (platform and playerId) and the bet type at
 * Infinite Blackjack, Blackjack Lux and the practice table: with a playerId of the 200 characters
 * an id may have, it is longer than 200. The bet must still be cancellable by the betId its answer
 * named (HTTP path and Kafka CancelBet), and the events naming it must match the contract.
 */
const ROUND = '533388df-5b1a-48d9-94c0-11d252b8daa3';
const LONGEST_PLATFORM = 'p'.repeat(40);
const LONGEST_PLAYER = 'x'.repeat(200);
const KEY = playerKey(LONGEST_PLATFORM, LONGEST_PLAYER);
const LONG_BET_IDS = [
  betIdOf(ROUND, KEY, 'x'.repeat(40)),
  luxBetIdOf(ROUND, KEY, 7, 'x'.repeat(40)),
  luxBetIdOf(ROUND, playerKey('default', `a:${'y'.repeat(198)}`), 7, 'bet-behind'),
];

/** The pipes Nest runs on the cancel route's `betId` path parameter. */
function betIdPipes(): PipeTransform[] {
  const args = Reflect.getMetadata(ROUTE_ARGS_METADATA, PlatformHttpController, 'cancel') as Record<
    string,
    { data?: string; pipes: PipeTransform[] }
  >;
  const param = Object.values(args).find((a) => a.data === 'betId');
  if (!param) throw new Error('no betId parameter on the cancel route');
  return param.pipes;
}

describe('a betId longer than 200 characters (a 200-character playerId)', () => {
  it.each(LONG_BET_IDS.map((id) => [id.length, id]))(
    'of %i characters passes the HTTP cancel route`s betId parameter',
    (_length, betId) => {
      expect(betId.length).toBeGreaterThan(200);
      const metadata: ArgumentMetadata = { type: 'param', data: 'betId' };
      for (const pipe of betIdPipes()) expect(pipe.transform(betId, metadata)).toBe(betId);
    },
  );

  it.each(LONG_BET_IDS.map((id) => [id.length, id]))(
    'of %i characters passes a Kafka CancelBet and the events that name the bet',
    (_length, betId) => {
      const cancel = {
        commandId: 'c-1',
        type: 'CancelBet',
        schemaVersion: 1,
        tableId: 'lux-1',
        playerId: LONGEST_PLAYER,
        betId,
      };
      expect(COMMAND_VALIDATORS.CancelBet(cancel)).toEqual([]);
      const envelope = (type: string, payload: unknown) => ({
        eventId: '0b8f4a52-4f43-4e0a-9f7e-0d7f3b0c1a11',
        type,
        schemaVersion: 1,
        tableId: 'lux-1',
        roundId: ROUND,
        seq: 7,
        occurredAt: '2026-11-29T13:45:00.000Z',
        payload,
      });
      const settlement = {
        betId,
        playerId: LONGEST_PLAYER,
        platformId: LONGEST_PLATFORM,
        betType: 'main',
        spot: '7',
        stake: 1000,
        returned: 2000,
        net: 1000,
        outcome: 'win',
        roundedDown: '0',
        currency: 'EUR',
      };
      const settled = { batch: 1, batches: 1, settlements: [settlement] };
      expect(eventValidator('BetsSettled')!(envelope('BetsSettled', settled))).toEqual([]);
      expect(eventValidator('BetsRefunded')!(envelope('BetsRefunded', settled))).toEqual([]);
      const cancelled = {
        betId,
        playerId: LONGEST_PLAYER,
        platformId: LONGEST_PLATFORM,
        betType: 'main',
        parts: [{ betType: 'main', amount: 1000 }],
        returned: 1000,
        currency: 'EUR',
      };
      expect(eventValidator('BetCancelled')!(envelope('BetCancelled', cancelled))).toEqual([]);
    },
  );

  it('is still bounded: an id of 10,000 characters is refused on the cancel route', () => {
    const metadata: ArgumentMetadata = { type: 'param', data: 'betId' };
    expect(() => betIdPipes().forEach((p) => p.transform('x'.repeat(10_000), metadata))).toThrow(
      /betId must NOT have more than/,
    );
  });
});
