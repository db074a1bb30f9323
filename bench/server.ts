import { startServer } from '../src/platform/server.ts';
import { allServices } from '../src/services/index.ts';
import { benchService } from './probe.ts';

// `ponte serve` with the bench probe beside every service: the real server, as `npm start` runs it
// (workers, the request log on stdout), for the process scenarios (n) of bench/processes.ts. A
// cluster's workers run this file again.

await startServer({ services: [...allServices, benchService] });
