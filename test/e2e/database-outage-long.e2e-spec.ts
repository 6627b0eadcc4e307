import { describeDatabaseOutages } from '../support/database-outages';

jest.setTimeout(900_000);

// Four long outages (15–30 s, as long as a database failover takes); database-outage-short runs
// the short ones beside it.
describeDatabaseOutages({ outages: 4, minMs: 15_000, maxMs: 30_000, seed: 20261202 });
