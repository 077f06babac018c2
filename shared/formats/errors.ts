/** A file that is not what its format says: the message names the line, record or field at fault. */
export class FormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FormatError';
  }
}

/** The run's formats, as the converter and the page name them. */
export const FORMATS = ['csv', 'pcap', 'qlog', 'mahimahi-log', 'iperf3'] as const;
export type Format = (typeof FORMATS)[number];
