/** A count with its noun, singular for one: "1 Submit kept", "2 Submits kept". */
export const count = (n: number, noun: string, plural = `${noun}s`) => `${n} ${n === 1 ? noun : plural}`;
