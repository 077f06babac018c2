import { COPIES, describeCopies } from './userSchemeCopies.ts';

/** Every copy but CUBIC's and BBR's (tests/unit/userSchemeCopiesLong.test.ts has those). */
describeCopies(COPIES.filter(([file]) => file !== 'cubic.js' && file !== 'bbr.js'));
