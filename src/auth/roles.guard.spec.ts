import type { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { AuthenticatedUser } from './authenticated-user';
import type { AuthenticateToken } from './authenticate-token/authenticate-token.use-case';
import { AuthenticatedRequest, RolesGuard } from './roles.guard';

describe('RolesGuard: the session a console stream keeps re-checking', () => {
  const token = 'a'.repeat(43);
  let user: AuthenticatedUser | undefined;
  const authenticate = { execute: async () => user } as unknown as AuthenticateToken;
  const reflector = { getAllAndOverride: () => ['dealer', 'supervisor'] } as unknown as Reflector;
  const guard = new RolesGuard(reflector, authenticate);
  const signedIn = async () => {
    const request = { headers: { authorization: `Bearer ${token}` } } as AuthenticatedRequest;
    const context = {
      getHandler: () => undefined,
      getClass: () => undefined,
      switchToHttp: () => ({ getRequest: () => request }),
    } as unknown as ExecutionContext;
    await expect(guard.canActivate(context)).resolves.toBe(true);
    return request.studioSession!;
  };
  const supervisor = { id: 'u1', username: 'pit', displayName: 'Pit', role: 'supervisor' };

  beforeEach(() => {
    user = { ...supervisor } as AuthenticatedUser;
  });

  it('stays active while the token is good and the user keeps the role it was opened with', async () => {
    const session = await signedIn();
    await expect(session.isActive()).resolves.toBe(true);
  });

  it('ends when the token is no longer good (logged out, expired, disabled)', async () => {
    const session = await signedIn();
    user = undefined;
    await expect(session.isActive()).resolves.toBe(false);
  });

  it("ends when the user's role changed: a supervisor's stream shows face-down cards, a dealer's does not", async () => {
    const session = await signedIn();
    user = { ...supervisor, role: 'dealer' } as AuthenticatedUser;
    await expect(session.isActive()).resolves.toBe(false);
  });
});
