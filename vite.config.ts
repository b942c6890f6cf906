import { reactRouter } from '@react-router/dev/vite';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig, type Plugin } from 'vite';

/**
 * React Router's package.json points every import at its development build (remix-run/react-router
 * #12532, #14102), which keeps the dev-only warnings and their messages in the browser bundle. The
 * production build beside it differs only by ENABLE_DEV_WARNINGS = false. The browser build takes it
 * (decision 144); the server build keeps the package's choice. Every import of the package is
 * redirected, so the browser never holds two copies of the router.
 */
function reactRouterProductionBuild(): Plugin {
  return {
    name: 'react-router-production-build',
    apply: 'build',
    enforce: 'pre',
    applyToEnvironment: (environment) => environment.name === 'client',
    async resolveId(source, importer, options) {
      if (source !== 'react-router' && source !== 'react-router/dom') return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      if (!resolved) return null;
      return { ...resolved, id: resolved.id.replace('/react-router/dist/development/', '/react-router/dist/production/') };
    },
  };
}

export default defineConfig({
  plugins: [reactRouterProductionBuild(), tailwindcss(), reactRouter()],
  build: { assetsInlineLimit: 0 },
  // The content pages' enhancement entry is imported with ?worker&url (app/root.tsx): an ES module
  // bundle of its own, so its lazy imports (the chat panel) stay separate chunks.
  worker: { format: 'es' },
  // The server build bundles the few dozen icons the pages use instead of loading lucide-react's
  // whole CommonJS build (1.3 MB, every icon) into the server at start (decision 180).
  ssr: { noExternal: ['lucide-react'] },
});
