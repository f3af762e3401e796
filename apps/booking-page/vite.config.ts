// The booking page's build: served by the partner API under /book, every asset from its own origin (no CDN, no web
// font), no inline script, so the strict Content-Security-Policy holds. Preact keeps the JavaScript a customer on a
// phone downloads far under the page's 60 KB (gzipped) budget.
import { defineConfig } from 'vite';

export default defineConfig({
  base: '/book/',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    // One small script: a second request would only delay the first paint on a phone.
    chunkSizeWarningLimit: 60,
  },
  server: {
    proxy: { '/api': 'http://127.0.0.1:3000' },
  },
});
