import { defineConfig } from 'vite'
import react from '@vitejs/plugin-react'

// Built by scripts/build-web.mjs into dist/web/feed-client; served by `quartet feed-client`.
export default defineConfig({
  plugins: [react()],
  base: '/',
  build: { target: 'es2022', sourcemap: false },
  server: { port: 3000, strictPort: false }
})
