/** Made by scripts/schemeCopies.ts (a Vite plugin): each built-in scheme's id and a loader of its copy's text. */
declare module 'virtual:scheme-copies' {
  export const COPIES: Readonly<Record<string, () => Promise<string>>>;
}
