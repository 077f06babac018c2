import { describe, expect, it } from 'vitest';
import { choice, num } from '../../shared/controllers/types.ts';
import { OFFSET_PARAMS } from '../../shared/offset/params.ts';
import { MATRIX } from '../../shared/scenarios/presets.ts';
import { FETCH_FLAGS, fetchMain } from '../../server/cli/fetch.ts';
import { flagHelp } from '../../server/cli/flagHelp.ts';
import { type FlagSpec, HELP_FLAG, listFlag, outputFlag, readCommandLine, requiredFlag, switchFlag, textFlag, UsageError, wholeFlag } from '../../server/cli/flags.ts';
import { linkMain, PROXY_FLAGS } from '../../server/cli/link.ts';
import { sim } from '../../server/cli/sim.ts';
import { SIM_FLAGS } from '../../server/cli/sim/simFlags.ts';
import { TESTALL_FLAGS, testallMain } from '../../server/cli/testall.ts';
import type { ToolMain } from '../../server/cli/tool.ts';
import { LINK_FLAGS } from '../../server/link/flags.ts';
import { relayMain } from '../../server/main.ts';
import { RELAY_SPECS } from '../../server/relayFlags.ts';
import { runInProcess } from '../helpers/cli.ts';

const FLAGS = [
  requiredFlag('send', 'CMD', 'the sender', { accepts: /\S/, means: 'a command line' }),
  textFlag('server', 'HOST:PORT', '127.0.0.1:9801', 'the server', { accepts: /^[^:]+:\d+$/, means: 'HOST:PORT' }),
  wholeFlag('timeout', 's', 1, 3600, null, 'one timeout'),
  wholeFlag('giveUp', 'ms', 100, 3_600_000, 120_000, 'stop then'),
  listFlag('only', 'GROUP', 'groups', { commas: true, accepts: (g) => ['basic', 'advanced'].includes(g), means: 'basic or advanced' }),
  choice('key', ['ip', 'ip:port'], 'ip:port', 'keyed by'),
  choice('queue', ['infinite', 'packets', 'bytes'], 'infinite', 'the queue'),
  num('delay', 'ms', 0, 100, 0.1, 0, 'hold'),
  outputFlag('csv', 'write the CSV'),
  switchFlag('json', 'as JSON'),
  HELP_FLAG,
] as const;

/** A reader of `flags`' command lines, for tests that expect no --help. */
const readerOf =
  <const L extends readonly FlagSpec[]>(flags: L) =>
  (...argv: string[]) => {
    const line = readCommandLine(argv, flags);
    if (line.help) throw new Error('--help was read');
    return line.flags;
  };
const read = readerOf(FLAGS);

describe('the flag layer: one declared list of flags per tool', () => {
  it('reads each flag to its kind, and a flag left out to its default', () => {
    expect(read('--send', 'python3 send.py')).toEqual({
      send: 'python3 send.py',
      server: '127.0.0.1:9801',
      timeout: undefined,
      giveUp: 120_000,
      only: [],
      key: 'ip:port',
      queue: 'infinite',
      delay: 0,
      csv: undefined,
      json: false,
      help: false,
    });
    expect(read('--send', 'x', '--timeout', '5', '--give-up=100', '--only', 'basic,advanced', '--only', 'basic', '--key', 'ip', '--delay', '2.5', '--json')).toMatchObject({
      timeout: 5,
      giveUp: 100,
      only: ['basic', 'advanced', 'basic'],
      key: 'ip',
      delay: 2.5,
      json: true,
    });
  });

  it('--help (or -h) wins, even with a required flag missing', () => {
    expect(readCommandLine(['--help'], FLAGS)).toEqual({ help: true });
    expect(readCommandLine(['-h', '--timeout', 'soon'], FLAGS)).toEqual({ help: true });
  });

  it('refuses a bad value with the flag and what it accepts', () => {
    const cases: [string[], string][] = [
      [[], '--send CMD is required'],
      [['--send', ' '], '--send must be a command line (got " ")'],
      [['--server', 'nowhere'], '--server must be HOST:PORT (got "nowhere")'],
      [['--timeout', '0'], '--timeout must be a whole number from 1 to 3600 (got "0")'],
      [['--give-up', '2.5'], '--give-up must be a whole number from 100 to 3600000 (got "2.5")'],
      [['--only', 'basic,fast'], '--only must be basic or advanced (got "fast")'],
      [['--key', 'mac'], '--key must be ip or ip:port (got "mac")'],
      [['--queue', 'fifo'], '--queue must be one of infinite, packets, bytes (got "fifo")'],
      [['--delay=-1'], '--delay must be a number from 0 to 100 (got "-1")'],
      [['--csv', '/nonexistent/dir/x.csv'], '--csv: cannot write "/nonexistent/dir/x.csv" (no such directory, or not allowed)'],
    ];
    // Every case but the first gives the required flag first, so the message is the bad value's.
    for (const [i, [argv, message]] of cases.entries()) expect(() => read(...(i === 0 ? argv : ['--send', 'x', ...argv])), message).toThrow(new UsageError(message));
    expect(() => read('--send', 'x', '--bogus')).toThrow(/Unknown option '--bogus'/);
  });

  it('writes one help line per flag: name, shape, doc and default; a shape too long for its column gets a line of its own', () => {
    expect(flagHelp(FLAGS).split('\n')).toEqual([
      '  --send                 CMD                        the sender',
      '  --server               HOST:PORT                  the server (default 127.0.0.1:9801)',
      '  --timeout              1…3600 s                   one timeout',
      '  --give-up              100…3600000 ms             stop then (default 120000)',
      '  --only                 GROUP                      groups',
      '  --key                  ip|ip:port                 keyed by (default ip:port)',
      '  --queue                infinite|packets|bytes     the queue (default infinite)',
      '  --delay                0…100 ms                   hold (default 0)',
      '  --csv                  FILE                       write the CSV',
      '  --json                                            as JSON',
      '  --help                 -h                         print this help',
    ]);
    expect(flagHelp([choice('discipline', ['drop-tail', 'drop-head', 'codel', 'pie'], 'drop-tail', 'Queue discipline')])).toBe(
      `  --discipline           drop-tail|drop-head|codel|pie\n${' '.repeat(52)}Queue discipline (default drop-tail)`,
    );
  });

  const tools: [string, ToolMain, readonly FlagSpec[]][] = [
    ['sim', sim, SIM_FLAGS],
    ['fetch', fetchMain, FETCH_FLAGS],
    ['link', linkMain, [...PROXY_FLAGS, ...LINK_FLAGS]],
    ['testall', testallMain, TESTALL_FLAGS],
    ['relay', relayMain, [...RELAY_SPECS, HELP_FLAG, ...OFFSET_PARAMS]],
  ];
  it.each(tools)("%s --help has its declared flags' generated lines, even with required flags missing", async (tool, main, flags) => {
    const r = await runInProcess(tool, main, ['--help']);
    expect([r.code, r.stderr]).toEqual([0, '']);
    for (const flag of flags) expect(r.stdout, flag.name).toContain(`${flagHelp([flag])}\n`);
  });

  it("each tool refuses a bad value of its own flags with exit 2 and the flag's message", async () => {
    const cases: [string, ToolMain, string[], string][] = [
      ['testall', testallMain, ['--recv', 'y'], '--send CMD is required'],
      ['testall', testallMain, ['--send', 'x', '--recv', 'y', '--row', '99'], `--row must be a row number from 1 to ${MATRIX.length} or a row's name, e.g. "${MATRIX[0].name}" (got "99")`],
      ['testall', testallMain, ['--send', 'x', '--recv', 'y', '--timeout', '0'], '--timeout must be a whole number from 1 to 3600 (got "0")'],
      // Node's recursive mkdir never returns under /proc: made level by level, the tool says why at once.
      ['testall', testallMain, ['--send', 'x', '--recv', 'y', '--out', '/proc/pipefill/rows'], '--out: cannot make the directory "/proc/pipefill/rows" (ENOENT)'],
      ['testall', testallMain, ['--send', 'x', '--recv', 'y', '--out', '/dev/null/rows'], '--out: cannot make the directory "/dev/null/rows" (ENOTDIR)'],
      ['fetch', fetchMain, ['--give-up', '50'], '--give-up must be a whole number from 100 to 3600000 (got "50")'],
      ['link', linkMain, ['--listen', '127.0.0.1:0', '--to', '127.0.0.1:9', '--csv-rows', 'all'], '--csv-rows must be a whole number from 0 to 5000000 (got "all")'],
      ['relay', relayMain, ['--allow', 'h:0'], '--allow must be HOST:PORT with a port from 1 to 65535 (got "h:0")'],
    ];
    for (const [tool, main, argv, message] of cases) {
      const r = await runInProcess(tool, main, argv);
      expect([r.code, r.stderr, r.stdout], `${tool} ${argv.join(' ')}`).toEqual([2, `${tool}: ${message}\nRun with --help for the options.\n`, '']);
    }
  });

  it('fetch refuses, before any datagram, an --id the Submit header cannot carry, showing it on one line', async () => {
    const must = '--id must be 1 to 100 printable ASCII characters, not all spaces';
    const cases: [string, string][] = [
      ['', '""'],
      [' ', '" "'],
      ['\t', '"\\u0009"'],
      ['élève@team', '"\\u00e9l\\u00e8ve@team"'],
      [`a\nMD5: ${'0'.repeat(32)}`, `"a\\u000aMD5: ${'0'.repeat(28)}…" (44 characters)`],
      ['x'.repeat(101), `"${'x'.repeat(40)}…" (101 characters)`],
    ];
    for (const [id, shown] of cases) {
      // Port 9 (discard): a fetch that went ahead would wait there for --give-up, not fail at once.
      const r = await runInProcess('fetch', fetchMain, ['--server', '127.0.0.1:9', '--give-up', '100', '--id', id]);
      expect([r.code, r.stderr, r.stdout], JSON.stringify(id)).toEqual([2, `fetch: ${must} (got ${shown})\nRun with --help for the options.\n`, '']);
    }
    const fine = await runInProcess('fetch', fetchMain, ['--server', '127.0.0.1:9', '--give-up', '100', '--id', `${'x'.repeat(99)}~`]);
    expect(fine.code).toBe(1);
  });
});

describe('a value that starts with "-" after a flag that takes one', () => {
  const SIGNED = [
    textFlag('name', 'NAME', 'x', 'a name'),
    num('offset', 'ms', -100, 100, 1, 0, 'shift'),
    num('delay', 'ms', 0, 100, 0.1, 0, 'hold'),
    switchFlag('json', 'as JSON'),
    HELP_FLAG,
  ] as const;
  const readSigned = readerOf(SIGNED);

  it('reads a negative number as the value, in range or refused with the range, as with =', () => {
    expect(readSigned('--offset', '-5', '--name', '-7', '--json')).toMatchObject({ offset: -5, name: '-7', json: true });
    expect(readSigned('--offset', '-.5e1')).toMatchObject({ offset: -5 });
    for (const value of ['-5', '-5x', '-.5']) {
      const message = `--delay must be a number from 0 to 100 (got "${value}")`;
      expect(() => readSigned('--delay', value), value).toThrow(new UsageError(message));
      expect(() => readSigned(`--delay=${value}`), value).toThrow(new UsageError(message));
    }
    expect(() => readSigned('--offset', '-101')).toThrow(new UsageError('--offset must be a whole number from -100 to 100 (got "-101")'));
  });

  it('names the flag left without a value, and says how to give one that starts with "-"', () => {
    const cases: [string[], string][] = [
      [['--name', '-foo'], '--name NAME is missing its value ("-foo" reads as a flag; a value that starts with "-" is joined to it: --name=-foo)'],
      [['--name', '--json'], '--name NAME is missing its value ("--json" reads as a flag; a value that starts with "-" is joined to it: --name=--json)'],
      [['--delay', '--', 'x'], '--delay 0…100 ms is missing its value ("--" ends the flags)'],
      [['--name', '-a b'], '--name NAME is missing its value ("-a b" reads as a flag; a value that starts with "-" is joined to it: --name=VALUE)'],
      [['--json', '--offset'], '--offset -100…100 ms is missing its value'],
      [['--name', '-x', '--bogus'], '--name NAME is missing its value ("-x" reads as a flag; a value that starts with "-" is joined to it: --name=-x)'],
    ];
    for (const [argv, message] of cases) expect(() => readSigned(...argv), argv.join(' ')).toThrow(new UsageError(message));
    expect(readSigned('--name', '-', '--name=-foo')).toMatchObject({ name: '-foo' });
    expect(readCommandLine(['--name', '--help'], SIGNED)).toEqual({ help: true });
  });

  it('every tool reads "--flag -5" as "--flag=-5": the range message, exit 2', async () => {
    const cases: [string, ToolMain, string[], string][] = [
      ['sim', sim, ['--delay', '-5'], '--delay: delay must be a whole number from 0 to 5000 ms (got "-5")'],
      ['sim', sim, ['--delay', '-5x'], '--delay: delay must be a whole number from 0 to 5000 ms (got "-5x")'],
      ['sim', sim, ['--seed', '-1'], '--seed must be a whole number from 0 to 2147483647 (got "-1")'],
      ['sim', sim, ['--trace', '-foo'], '--trace NAME|FILE is missing its value ("-foo" reads as a flag; a value that starts with "-" is joined to it: --trace=-foo)'],
      ['fetch', fetchMain, ['--give-up', '-5'], '--give-up must be a whole number from 100 to 3600000 (got "-5")'],
      ['link', linkMain, ['--listen', '127.0.0.1:0', '--to', '127.0.0.1:9', '--latency', '-5'], '--latency: latency must be a whole number from 0 to 5000 ms (got "-5")'],
      ['testall', testallMain, ['--send', 'x', '--recv', 'y', '--timeout', '-5'], '--timeout must be a whole number from 1 to 3600 (got "-5")'],
      ['relay', relayMain, ['--delay', '-5'], '--delay must be a number from 0 to 60000 (got "-5")'],
      ['relay', relayMain, ['--loss', '-0.5'], '--loss: loss must be a number from 0 to 100 % (got "-0.5")'],
    ];
    for (const [tool, main, argv, message] of cases) {
      const r = await runInProcess(tool, main, argv);
      expect([r.code, r.stderr, r.stdout], `${tool} ${argv.join(' ')}`).toEqual([2, `${tool}: ${message}\nRun with --help for the options.\n`, '']);
    }
  });

  it('a value that may start with "-" gets through, and sim --delay 50 still runs with that delay', async () => {
    // Port 9 (discard): the --id was taken, so the fetch went on to fail there, exit 1 and not 2.
    const fetched = await runInProcess('fetch', fetchMain, ['--server', '127.0.0.1:9', '--give-up', '100', '--id', '-7']);
    expect([fetched.code, fetched.stderr]).toEqual([1, 'fetch: nothing listens on 127.0.0.1:9 over UDP (is the offset server running?)\n']);
    const [spaced, joined, plain] = await Promise.all([['--delay', '50'], ['--delay=50'], []].map((argv) => runInProcess('sim', sim, [...argv, '--json'])));
    expect([spaced.code, spaced.stderr]).toEqual([0, '']);
    // The run's own wall-clock time is the one figure that differs between equal runs.
    const figures = (r: { stdout: string }) => ({ ...JSON.parse(r.stdout), wallMs: 0 });
    expect(figures(spaced)).toEqual(figures(joined));
    expect(figures(spaced).all.delay95).not.toBe(figures(plain).all.delay95);
  });
});
