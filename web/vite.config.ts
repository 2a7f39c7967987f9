// Vite builds the app into web/dist: index.html (no inline script: the server's Content-Security-Policy
// refuses any) and content-hashed files under assets/, each also as .br and .gz for the server to send
// as they are (src/http/web-app.ts). `npm run dev -w web` serves it with the API proxied to a running
// Cairn (CAIRN_DEV_API, default http://127.0.0.1:8080).
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { compression } from 'vite-plugin-compression2';

const api = process.env.CAIRN_DEV_API ?? 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [
    react(),
    compression({
      algorithms: ['gzip', 'brotliCompress'],
      include: /\.(js|css|svg|html)$/,
      exclude: /index\.html$/,
    }),
  ],
  resolve: {
    // The client's source, as the repository's own tests use it (its package exports a build made only
    // when it is packed).
    alias: { '@cairn/client': fileURLToPath(new URL('../client/src/index.ts', import.meta.url)) },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // Every browser the app supports has modulepreload: no polyfill in the first load.
    modulePreload: { polyfill: false },
    reportCompressedSize: false,
  },
  server: {
    // A cookie-authenticated write must come from Cairn's own origin (docs/api.md "Sessions"): the dev
    // server's requests are sent on as if they did.
    proxy: {
      '/v1': {
        target: api,
        configure: (proxy) => proxy.on('proxyReq', (request) => request.setHeader('origin', api)),
      },
    },
  },
});
