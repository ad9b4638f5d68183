import { defineConfig, type Plugin } from 'vite'
import react from '@vitejs/plugin-react'

/**
 * The app (boot.tsx) is a chunk the tiny entry imports once it has sent the first API reads; listing
 * it (and its CSS) in the page lets the browser fetch it at once, alongside the entry.
 */
function preloadApp(): Plugin {
  return {
    name: 'quartet-preload-app',
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        const app = Object.values(ctx.bundle ?? {}).find((c) => c.type === 'chunk' && c.facadeModuleId?.endsWith('/src/boot.tsx'))
        if (!app || app.type !== 'chunk') return []
        const css = [...(app.viteMetadata?.importedCss ?? [])]
        return [
          { tag: 'link', attrs: { rel: 'modulepreload', crossorigin: true, href: `/${app.fileName}` }, injectTo: 'head' },
          ...css.map((file) => ({
            tag: 'link',
            attrs: { rel: 'stylesheet', crossorigin: true, href: `/${file}` },
            injectTo: 'head' as const
          }))
        ]
      }
    }
  }
}

// Built by scripts/build-web.mjs into dist/web/dashboard; served by `quartet serve orchestrator` at /.
export default defineConfig({
  plugins: [react(), preloadApp()],
  base: '/',
  build: { target: 'es2022', sourcemap: false },
  server: { port: 3101, strictPort: false, proxy: { '/api': 'http://127.0.0.1:3100' } }
})
