import { reactRouter } from '@react-router/dev/vite';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [tailwindcss(), reactRouter()],
  build: { assetsInlineLimit: 0 },
  // The content pages' enhancement entry is imported with ?worker&url (app/root.tsx): an ES module
  // bundle of its own, so its lazy imports (the chat panel) stay separate chunks.
  worker: { format: 'es' },
  // The server build bundles the few dozen icons the pages use instead of loading lucide-react's
  // whole CommonJS build (1.3 MB, every icon) into the server at start (decision 180).
  ssr: { noExternal: ['lucide-react'] },
});
