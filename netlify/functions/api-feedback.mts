// POST /api/feedback: a page is wrong, outdated or missing something (src/core/feedback); the MCP tool and A2A skill store the same way.
import type { Config, Context } from '@netlify/functions';
import { FEEDBACK_EDGE, handleFeedback } from '../../src/core/feedback/feedback.ts';
import { httpHandler } from '../../src/core/kernel/handler.ts';
import { catalogAt } from './_shared/deps.ts';
import { feedbackDeps } from './_shared/feedback.ts';
import { counting, usageOf } from './_shared/usage.ts';

// The catalogue says which paths are pages (netlify.toml included_files); its head is all a check reads but for one documents file.
const catalog = catalogAt(new URL('../../generated/data/catalog/', import.meta.url));

export default httpHandler((req: Request, context: Context) => handleFeedback(req, feedbackDeps(context, catalog(), usageOf(context))), {
  ...FEEDBACK_EDGE,
  usage: counting('api'),
});

export const config: Config = { path: '/api/feedback' };
