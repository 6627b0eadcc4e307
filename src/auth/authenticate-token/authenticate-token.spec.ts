import type { UserEntity } from '@studio/persistence';
import { Clock } from '../../clock/clock';
import { hashToken } from '../session-token';
import { AuthenticateToken, OUTAGE_GRACE_MS } from './authenticate-token.use-case';
import type { UsersRepository } from '../users.repository';
import { SignOut } from '../sign-out/sign-out.use-case';

class TestClock extends Clock {
  at = Date.UTC(2026, 11, 1, 12);
  now(): Date {
    return new Date(this.at);
  }
}

const DEALER: UserEntity = {
  id: 'u-1',
  username: 'dealer',
  displayName: 'Dealer',
  role: 'dealer',
  passwordHash: 'x',
  createdAt: new Date(0),
  disabledAt: null,
};

const outage = () =>
  Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

function setup() {
  const clock = new TestClock();
  const sessions = new Map<string, UserEntity>([[hashToken('good'), DEALER]]);
  let down = false;
  const users = {
    sessionUser: async (hash: string) => {
      if (down) throw outage();
      return sessions.get(hash);
    },
  } as unknown as UsersRepository;
  return {
    clock,
    sessions,
    authenticate: new AuthenticateToken(users, clock),
    setDown: (value: boolean) => (down = value),
  };
}

describe('AuthenticateToken during a database outage', () => {
  it('keeps a session the database confirmed within the grace signed in', async () => {
    const { clock, authenticate, setDown } = setup();
    expect(await authenticate.execute('good')).toMatchObject({ username: 'dealer' });
    setDown(true);
    clock.at += OUTAGE_GRACE_MS - 1;
    expect(await authenticate.execute('good')).toMatchObject({ username: 'dealer' });
  });

  it('answers the outage once the grace is over', async () => {
    const { clock, authenticate, setDown } = setup();
    await authenticate.execute('good');
    setDown(true);
    clock.at += OUTAGE_GRACE_MS + 1;
    await expect(authenticate.execute('good')).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('never accepts a token the database has not confirmed', async () => {
    const { authenticate, setDown } = setup();
    setDown(true);
    await expect(authenticate.execute('good')).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    await expect(authenticate.execute('made-up')).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('forgets a session the database no longer knows (revoked or expired)', async () => {
    const { authenticate, sessions, setDown } = setup();
    await authenticate.execute('good');
    sessions.clear();
    expect(await authenticate.execute('good')).toBeUndefined();
    setDown(true);
    await expect(authenticate.execute('good')).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('never accepts a signed-out session during an outage', async () => {
    const { clock, authenticate, setDown } = setup();
    await authenticate.execute('good');
    const revoked: string[] = [];
    const users = { revokeSession: async (hash: string) => void revoked.push(hash) };
    await new SignOut(users as unknown as UsersRepository, clock, authenticate).execute('good');
    expect(revoked).toEqual([hashToken('good')]);
    setDown(true);
    await expect(authenticate.execute('good')).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('passes on errors that are not an outage', async () => {
    const clock = new TestClock();
    let calls = 0;
    const users = {
      sessionUser: async () => {
        calls += 1;
        if (calls > 1) throw Object.assign(new Error('syntax error'), { code: '42601' });
        return DEALER;
      },
    } as unknown as UsersRepository;
    const authenticate = new AuthenticateToken(users, clock);
    await authenticate.execute('good');
    await expect(authenticate.execute('good')).rejects.toThrow('syntax error');
  });
});
