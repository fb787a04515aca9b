/**
 * The statistics dashboard: static files under /dashboard (the page, its scripts and
 * styles, and uPlot from node_modules), read once at start-up and served from memory
 * with an ETag. The page itself is public; its data calls carry the user's token.
 */
import { fileURLToPath } from 'node:url';
import { sameOriginPolicy, staticPages } from '../http/static-files.ts';

export const dashboardRoutes = staticPages({
  prefix: '/dashboard',
  dir: fileURLToPath(new URL('./public/', import.meta.url)),
  // The chart library, served from the installed package (no CDN), under the names the page imports.
  vendor: { 'uplot.js': 'uplot/dist/uPlot.esm.js', 'uplot.css': 'uplot/dist/uPlot.min.css' },
  contentSecurityPolicy: sameOriginPolicy(['data:']),
  label: 'Dashboard',
});
