import express from 'express';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HttpMetricsMiddleware } from './http-metrics.middleware';
import type { StudioMetrics } from './studio-metrics';

describe('HttpMetricsMiddleware', () => {
  it('times each answer once, by method, route pattern and status (unmatched: no route)', async () => {
    const observed: Array<[Record<string, string>, number]> = [];
    const metrics = {
      httpDuration: {
        observe: (labels: Record<string, string>, s: number) => observed.push([labels, s]),
      },
    } as unknown as StudioMetrics;
    const middleware = new HttpMetricsMiddleware(metrics);
    const app = express();
    app.use((request, response, next) => middleware.use(request, response, next));
    app.post('/tables/:tableId/bets', (_request, response) => {
      setTimeout(() => response.status(409).json({}), 20);
    });
    const server = createServer(app);
    await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      await fetch(`${base}/tables/t-1/bets`, { method: 'POST' });
      await fetch(`${base}/nowhere`);
    } finally {
      await new Promise((ok) => server.close(ok));
    }
    expect(observed.map(([labels]) => labels)).toEqual([
      { method: 'POST', route: '/tables/:tableId/bets', status: '409' },
      { method: 'GET', route: 'unmatched', status: '404' },
    ]);
    expect(observed[0][1]).toBeGreaterThanOrEqual(0.015);
    expect(observed[0][1]).toBeLessThan(5);
  });
});
