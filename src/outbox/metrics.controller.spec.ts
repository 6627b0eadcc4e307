import { renderPrometheus } from './metrics.controller';

describe('Prometheus text format', () => {
  it('describes each metric once and escapes label values', () => {
    const text = renderPrometheus([
      { name: 'a_total', help: 'A.', type: 'counter', value: 3, labels: { outcome: 'ok' } },
      { name: 'a_total', help: 'A.', type: 'counter', value: 1, labels: { outcome: 'say "no"' } },
      { name: 'lag_seconds', help: 'Lag.', type: 'gauge', value: Number.NaN },
    ]);
    expect(text).toBe(
      [
        '# HELP a_total A.',
        '# TYPE a_total counter',
        'a_total{outcome="ok"} 3',
        'a_total{outcome="say \\"no\\""} 1',
        '# HELP lag_seconds Lag.',
        '# TYPE lag_seconds gauge',
        'lag_seconds 0',
        '',
      ].join('\n'),
    );
  });
});
