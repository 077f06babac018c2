import { COPIES, describeCopies } from './userSchemeCopies.ts';

/** CUBIC's and BBR's copies: their runs are the longest, so they have a file (and a worker) of their own. */
describeCopies(COPIES.filter(([file]) => file === 'cubic.js' || file === 'bbr.js'));
