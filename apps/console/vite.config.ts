// The console's build: served by the operator API under /console, every asset from its own origin (no CDN), and no
// inline script, so the strict Content-Security-Policy holds.
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  base: '/console/',
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsInlineLimit: 0,
    // The module preload polyfill is for browsers without modulepreload; it would be one more script to audit.
    modulePreload: { polyfill: false },
    chunkSizeWarningLimit: 400,
  },
  server: {
    proxy: { '/api': 'http://127.0.0.1:3000' },
  },
});
