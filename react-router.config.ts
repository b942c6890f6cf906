import type { Config } from '@react-router/dev/config';
import { PRERENDERED_PATHS } from './common/paths.ts';

export default {
  appDirectory: 'app',
  // BUILD_DIR lets several builds (tests, benchmarks) live side by side.
  buildDirectory: process.env.BUILD_DIR ?? 'build',
  // Server rendering stays on for the articles pages and the 404 status; the content pages are
  // rendered once at build time and served as static files.
  ssr: true,
  prerender: [...PRERENDERED_PATHS],
  // The company content (common/content) is checked against its zod schemas on every build; a bad
  // field fails the build instead of shipping. The browser bundle never carries those schemas.
  async buildEnd() {
    const { validateContent } = await import('./common/content/validate-content.ts');
    validateContent();
  },
} satisfies Config;
