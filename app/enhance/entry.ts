// The one script of the content pages (decision 140): no React, no React Router. It finds the
// server-rendered markup of each behaviour by its data-module attribute and wires it.

import { enhanceAll } from './registry.ts';

enhanceAll(document);
