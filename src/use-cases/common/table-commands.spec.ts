import { ApproveVoidCommand } from '../approve-void/approve-void.command';
import { CorrectCardCommand } from '../correct-card/correct-card.command';
import { EndShoeCommand } from '../end-shoe/end-shoe.command';
import { PauseRoundCommand } from '../pause-round/pause-round.command';
import { isRejection } from './table-command';
import { VoidRoundCommand } from '../void-round/void-round.command';

/** Each command object refuses what no table could accept, before it reaches one. */
describe('table command objects', () => {
  const who = { tableId: 't1', by: 'sup' };

  it('refuses a blank or missing reason with reason-required, naming the action', () => {
    expect(PauseRoundCommand.create({ ...who, reason: '  ' })).toEqual({
      accepted: false,
      code: 'reason-required',
      message: 'A pause needs a reason',
    });
    expect(VoidRoundCommand.create({ ...who, reason: undefined })).toMatchObject({
      code: 'reason-required',
      message: 'A void needs a reason',
    });
    expect(EndShoeCommand.create({ ...who, reason: 42 })).toMatchObject({
      code: 'reason-required',
    });
    expect(
      CorrectCardCommand.create({ ...who, slot: 'player-1/1', card: '7C', reason: '' }),
    ).toMatchObject({ code: 'reason-required', message: 'A correction needs a reason' });
  });

  it('trims reasons for pause, void and end-shoe, and keeps a correction reason as written', () => {
    const pause = PauseRoundCommand.create({ ...who, reason: ' dealer change ' });
    expect(isRejection(pause)).toBe(false);
    expect(pause).toMatchObject({ tableId: 't1', by: 'sup', reason: 'dealer change' });
    expect(VoidRoundCommand.create({ ...who, reason: ' x ' })).toMatchObject({ reason: 'x' });
    const fix = CorrectCardCommand.create({ ...who, slot: 's', card: '7C', reason: ' mis-scan ' });
    expect(fix).toMatchObject({ slot: 's', card: '7C', reason: ' mis-scan ' });
  });

  it('refuses a void request id that cannot name a record', () => {
    expect(ApproveVoidCommand.create({ ...who, requestId: 'abc' })).toEqual({
      accepted: false,
      code: 'unknown-request',
      message: 'No void request abc',
    });
    expect(ApproveVoidCommand.create({ ...who, requestId: '17' })).toMatchObject({
      requestId: '17',
    });
    // Past a bigint's range PostgreSQL refused the lookup itself: the approval answered 500.
    expect(
      ApproveVoidCommand.create({ ...who, requestId: '99999999999999999999999' }),
    ).toMatchObject({ code: 'unknown-request' });
    expect(ApproveVoidCommand.create({ ...who, requestId: '9223372036854775808' })).toMatchObject({
      code: 'unknown-request',
    });
    expect(ApproveVoidCommand.create({ ...who, requestId: '9223372036854775807' })).toMatchObject({
      requestId: '9223372036854775807',
    });
  });
});
