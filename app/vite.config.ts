import { qwikVite } from '@builder.io/qwik/optimizer';
import { defineConfig } from 'vite';

export default defineConfig({
  root: __dirname,
  base: '/graph/',
  plugins: [qwikVite({ csr: true })],
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022' },
});
