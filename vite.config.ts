import { reactRouter } from '@react-router/dev/vite';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [tailwindcss(), reactRouter()],
  build: { assetsInlineLimit: 0 },
  // The content pages' enhancement entry is imported with ?worker&url (app/root.tsx): an ES module
  // bundle of its own, so its lazy imports (the chat panel) stay separate chunks.
  worker: { format: 'es' },
});
