import { describe, expect, it } from 'vitest';
import { readCommandLine, UsageError } from '../../server/cli/flags.ts';
import { RELAY_SPECS, readRelayFlags } from '../../server/relayFlags.ts';

const read = (args: string[]) => {
  const line = readCommandLine(args, [], RELAY_SPECS);
  return line.help ? {} : readRelayFlags(line.given);
};

describe('relay flags from the table', () => {
  it("sets each option the flags name, in the option's unit", () => {
    expect(read(['--udp-port', '0', '--reorder', '12.5', '--key', 'ip', '--tournament', '--allow', '10.0.0.1:9', '--allow', 'h:1', '--leaderboard', '/tmp/b.csv', '--single-thread'])).toEqual({
      constantPort: 0,
      reorder: 0.125,
      keyBy: 'ip',
      tournament: true,
      allow: ['10.0.0.1:9', 'h:1'],
      leaderboardFile: '/tmp/b.csv',
      singleThread: true,
    });
    expect(read([])).toEqual({});
  });

  it('names the flag and what it accepts', () => {
    expect(() => read(['--max-rate', '2.5'])).toThrow(new UsageError('--max-rate must be a whole number from 1 to 10000000 (got "2.5")'));
    expect(() => read(['--jitter=-1'])).toThrow(new UsageError('--jitter must be a number from 0 to 60000 (got "-1")'));
    expect(() => read(['--key', 'mac'])).toThrow(new UsageError('--key must be ip or ip:port (got "mac")'));
    expect(() => read(['--allow-origin', 'ftp://x'])).toThrow(new UsageError('--allow-origin must be URL (got "ftp://x")'));
  });

  it('two of its own services on one port are named, not taken for another program holding it', () => {
    expect(() => read(['--udp-port', '39400', '--variable-port', '39400'])).toThrow(new UsageError('--udp-port and --variable-port are both 39400: each service needs a port of its own'));
    expect(() => read(['--echo-port', '8080'])).toThrow(new UsageError('--http-port and --echo-port are both 8080: each service needs a port of its own'));
    // any free port may be asked for twice; a UDP and a TCP service may share a number
    expect(read(['--udp-port', '0', '--variable-port', '0', '--echo-port', '9801'])).toEqual({ constantPort: 0, variablePort: 0, echoPort: 9801 });
  });

  it('keeps the records in a data folder or a leaderboard file, not both', () => {
    expect(read(['--data', '/var/lib/pipefill'])).toMatchObject({ dataDir: '/var/lib/pipefill' });
    expect(() => read(['--data', 'd', '--leaderboard', 'f.jsonl'])).toThrow(new UsageError('--data keeps the leaderboard in DIR/records.jsonl: give --data or --leaderboard, not both'));
  });
});
