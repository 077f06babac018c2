import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { schemeCopiesPlugin } from './scripts/schemeCopies.ts';

export default defineConfig({
  root: 'web',
  publicDir: '../public',
  plugins: [react(), schemeCopiesPlugin()],
  build: { outDir: '../dist', emptyOutDir: true },
  worker: { format: 'es' },
});
