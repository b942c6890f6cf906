import type { Config } from '@react-router/dev/config';

export default {
  appDirectory: 'app',
  // BUILD_DIR lets several builds (tests, benchmarks) live side by side.
  buildDirectory: process.env.BUILD_DIR ?? 'build',
  // Every page is rendered by the server: the content pages from the published content snapshot,
  // once per publish, then kept in the site page cache (decision 289). The build needs no content.
  ssr: true,
} satisfies Config;
