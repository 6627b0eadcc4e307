import express from 'express';
import { allowedMethods } from './allowed-methods';

describe('allowedMethods', () => {
  const app = express();
  app.post('/platform/tables/:tableId/bets', (_req, res) => res.end());
  app.get('/audit/rounds', (_req, res) => res.end());
  app.delete('/platform/tables/:tableId/bets/:betId', (_req, res) => res.end());
  app.use((_req, _res, next) => next());
  const ask = (method: string, path: string) => allowedMethods({ method, path, app: app as never });

  it('names the methods of a route called with another one', () => {
    expect(ask('GET', '/platform/tables/ibj-1/bets')).toEqual(['POST']);
    expect(ask('PUT', '/audit/rounds')).toEqual(['GET', 'HEAD']);
    expect(ask('POST', '/platform/tables/ibj-1/bets/b-1')).toEqual(['DELETE']);
  });

  it('is empty for a path no route has, and for a method the route answers', () => {
    expect(ask('GET', '/platform/tables')).toEqual([]);
    expect(ask('POST', '/platform/tables/ibj-1/bets')).toEqual([]);
  });
});
