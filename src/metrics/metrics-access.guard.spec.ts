import { ExecutionContext, ForbiddenException, UnauthorizedException } from '@nestjs/common';
import type { AuthenticateToken } from '../auth/authenticate-token/authenticate-token.use-case';
import type { StudioConfig } from '../config/studio-config';
import { MetricsAccessGuard } from './metrics-access.guard';

const SCRAPE = 'prometheus-scrape-token-0123456789';
const SUPERVISOR = 'supervisor-token-abcdefghijklmnop';
const DEALER = 'dealer-token-abcdefghijklmnopqrst';

function guard(metricsToken?: string) {
  const authenticate = {
    execute: async (token: string) =>
      token === SUPERVISOR
        ? { role: 'supervisor' }
        : token === DEALER
          ? { role: 'dealer' }
          : undefined,
  } as unknown as AuthenticateToken;
  return new MetricsAccessGuard({ metricsToken } as StudioConfig, authenticate);
}

function request(authorization?: string): ExecutionContext {
  const req = { headers: authorization ? { authorization } : {} };
  return { switchToHttp: () => ({ getRequest: () => req }) } as unknown as ExecutionContext;
}

describe('MetricsAccessGuard', () => {
  it('lets Prometheus in with METRICS_TOKEN and supervisors with their sign-in token', async () => {
    await expect(guard(SCRAPE).canActivate(request(`Bearer ${SCRAPE}`))).resolves.toBe(true);
    await expect(guard(SCRAPE).canActivate(request(`Bearer ${SUPERVISOR}`))).resolves.toBe(true);
    await expect(guard().canActivate(request(`Bearer ${SUPERVISOR}`))).resolves.toBe(true);
  });

  it('refuses no token, an unknown token and other roles', async () => {
    await expect(guard(SCRAPE).canActivate(request())).rejects.toBeInstanceOf(
      UnauthorizedException,
    );
    await expect(guard().canActivate(request(`Bearer ${SCRAPE}`))).rejects.toBeInstanceOf(
      UnauthorizedException,
    );
    await expect(guard(SCRAPE).canActivate(request(`Bearer ${DEALER}`))).rejects.toBeInstanceOf(
      ForbiddenException,
    );
  });
});
