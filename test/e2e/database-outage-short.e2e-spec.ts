import { describeDatabaseOutages } from '../support/database-outages';

jest.setTimeout(900_000);

// Six short outages (5–15 s); database-outage-long runs the long ones beside it.
describeDatabaseOutages({ outages: 6, minMs: 5_000, maxMs: 15_000, seed: 20261130 });
